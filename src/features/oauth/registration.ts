// RFC 7591 dynamic client registration for public clients: validation of the submitted metadata
// and the client information returned.
import { t, type Static } from "elysia";
import { Value } from "@sinclair/typebox/value";
import type { OAuthClientRow } from "../../db/schema/index.ts";
import { OAuthError } from "./errors.ts";
import { hasUnsafeText } from "./client-text.ts";

export const SUPPORTED_SCOPES = ["mcp"] as const;
export const DEFAULT_SCOPE = "mcp";
export const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;
export const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export const ClientRegistration = t.Object({
  redirect_uris: t.Array(t.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: MAX_REDIRECT_URIS }),
  client_name: t.Optional(t.String({ maxLength: 200 })),
  token_endpoint_auth_method: t.Optional(t.String({ maxLength: 100 })),
  grant_types: t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 10 })),
  response_types: t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 10 })),
  scope: t.Optional(t.String({ maxLength: 1000 })),
  client_uri: t.Optional(t.String({ maxLength: 2000 })),
  software_id: t.Optional(t.String({ maxLength: 200 })),
  software_version: t.Optional(t.String({ maxLength: 100 })),
});
export type ClientRegistration = Static<typeof ClientRegistration>;

export interface ClientInformation {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  scope: string;
  client_uri?: string;
  software_id?: string;
  software_version?: string;
}

/** https anywhere, or http on the loopback interface (native apps, RFC 8252); never a fragment or credentials. */
export function redirectUriProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URL`;
  }
  if (url.hash || raw.includes("#")) return `${raw} must not contain a fragment`;
  if (url.username || url.password) return `${raw} must not contain credentials`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `${raw} must use https, or http on a loopback address (127.0.0.1, [::1], localhost)`;
}

/** Scopes we know, in the order asked; unknown ones (openid, offline_access…) are ignored, none asked means mcp. */
export function grantedScope(requested: string | undefined | null): string {
  const asked = (requested ?? "").split(" ").filter(Boolean);
  const known = asked.filter((s): s is (typeof SUPPORTED_SCOPES)[number] =>
    (SUPPORTED_SCOPES as readonly string[]).includes(s),
  );
  return known.length ? [...new Set(known)].join(" ") : DEFAULT_SCOPE;
}

function httpUrlOrUndefined(raw: string | undefined, field: string): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol === "https:" || u.protocol === "http:") return u.href;
  } catch {
    // fall through
  }
  throw new OAuthError("invalid_client_metadata", `${field} must be an http or https URL`);
}

/** Every string the client sent, shown later or not, must be free of control and bidi characters. */
function refuseUnsafeText(m: ClientRegistration): void {
  for (const [field, value] of Object.entries(m)) {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    const i = items.findIndex((v) => typeof v === "string" && hasUnsafeText(v));
    if (i < 0) continue;
    const path = Array.isArray(value) ? `${field}.${i}` : field;
    throw new OAuthError(
      field === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata",
      `${path} must not contain control characters or invisible formatting characters such as bidirectional overrides`,
    );
  }
}

/** Checks the registration request; returns the row to store. Throws OAuthError with RFC 7591 codes. */
export function validateRegistration(body: unknown, id: string, at: string): OAuthClientRow {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new OAuthError("invalid_client_metadata", "The body must be a JSON object");
  const raw = body as Record<string, unknown>;
  if (!Array.isArray(raw.redirect_uris) || raw.redirect_uris.length === 0) {
    throw new OAuthError("invalid_redirect_uri", "redirect_uris must list at least one redirect URI");
  }
  if (!Value.Check(ClientRegistration, raw)) {
    const first = [...Value.Errors(ClientRegistration, raw)][0];
    const path = first?.path.replace(/^\//, "").replaceAll("/", ".") || "body";
    const code = path.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(code, `${path}: ${first?.message ?? "is invalid"}`);
  }
  const m = raw as ClientRegistration;
  refuseUnsafeText(m);
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }
  const method = m.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    throw new OAuthError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be "none": Commonplace registers public clients that prove themselves with PKCE`,
    );
  }
  const badGrant = m.grant_types?.find((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (badGrant)
    throw new OAuthError(
      "invalid_client_metadata",
      `grant_types: ${badGrant} is not supported (use authorization_code and refresh_token)`,
    );
  if (m.response_types?.some((r) => r !== "code"))
    throw new OAuthError("invalid_client_metadata", 'response_types: only "code" is supported');
  const name = m.client_name?.trim() || new URL(m.redirect_uris[0]!).host;
  return {
    id,
    name,
    redirectUris: JSON.stringify([...new Set(m.redirect_uris)]),
    clientUri: httpUrlOrUndefined(m.client_uri, "client_uri") ?? null,
    softwareId: m.software_id ?? null,
    softwareVersion: m.software_version ?? null,
    scope: grantedScope(m.scope),
    createdAt: at,
  };
}

export const redirectUrisOf = (row: OAuthClientRow): string[] => JSON.parse(row.redirectUris) as string[];

export function clientInformation(row: OAuthClientRow): ClientInformation {
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(Date.parse(row.createdAt) / 1000),
    client_name: row.name,
    redirect_uris: redirectUrisOf(row),
    grant_types: [...GRANT_TYPES],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    scope: row.scope,
    ...(row.clientUri ? { client_uri: row.clientUri } : {}),
    ...(row.softwareId ? { software_id: row.softwareId } : {}),
    ...(row.softwareVersion ? { software_version: row.softwareVersion } : {}),
  };
}
