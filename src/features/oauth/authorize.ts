// The authorization endpoint's logic: checks a request, parks it while the user signs in and
// consents, then answers the client's redirect URI with a single-use code or an error.
import type { OAuthClientRow } from "../../db/schema/index.ts";
import { AppError } from "../../errors.ts";
import { iso, type Clock } from "../../time.ts";
import { AuthorizePageError, OAuthError, redirectUrl } from "./errors.ts";
import { grantedScope, redirectUrisOf } from "./registration.ts";
import type { PendingAuthorization, PendingStore } from "./pending.ts";
import type { OAuthRepo } from "./repo.ts";
import { CODE_PREFIX, hashToken, isS256Challenge, newSecret } from "./secrets.ts";

export const CODE_TTL_MS = 5 * 60_000;
export const PENDING_TTL_MS = 15 * 60_000;
const MAX_STATE = 2000;
const SINGLE = [
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "resource",
  "scope",
  "state",
  "prompt",
];

export type { PendingAuthorization } from "./pending.ts";

export type AuthorizeResult = { kind: "consent"; requestId: string } | { kind: "redirect"; location: string };

export function createAuthorizer(deps: {
  repo: OAuthRepo;
  /** Requests waiting for sign-in and consent. */
  pending: PendingStore;
  clock: Clock;
  issuer: string;
  resources: readonly string[];
}) {
  const { repo, pending, clock, issuer } = deps;

  /** Errors that may be sent back to the (already verified) redirect URI. */
  function checkParams(q: URLSearchParams): {
    codeChallenge: string;
    resource: string;
    scope: string;
    state: string | undefined;
  } {
    const repeated = SINGLE.find((k) => q.getAll(k).length > 1);
    if (repeated) throw new OAuthError("invalid_request", `${repeated} must not be repeated`);
    const responseType = q.get("response_type");
    if (!responseType) throw new OAuthError("invalid_request", "response_type is required");
    if (responseType !== "code")
      throw new OAuthError("unsupported_response_type", 'Only response_type "code" is supported');
    const challenge = q.get("code_challenge");
    if (!challenge) throw new OAuthError("invalid_request", "code_challenge is required: PKCE with S256");
    if (q.get("code_challenge_method") !== "S256") {
      throw new OAuthError(
        "invalid_request",
        'code_challenge_method must be "S256"; "plain" and a missing method are refused',
      );
    }
    if (!isS256Challenge(challenge))
      throw new OAuthError("invalid_request", "code_challenge must be 43 base64url characters (an S256 hash)");
    const resource = q.get("resource");
    if (!resource) throw new OAuthError("invalid_request", `resource is required (RFC 8707); use ${deps.resources[0]}`);
    if (!deps.resources.includes(resource))
      throw new OAuthError("invalid_target", `resource must be ${deps.resources.join(" or ")}`);
    const state = q.get("state") ?? undefined;
    if (state && state.length > MAX_STATE)
      throw new OAuthError("invalid_request", `state must be at most ${MAX_STATE} characters`);
    // We always ask the user, so a request that forbids asking cannot succeed.
    if (q.get("prompt")?.split(" ").includes("none"))
      throw new OAuthError("consent_required", "Commonplace always asks the user to consent");
    return { codeChallenge: challenge, resource, scope: grantedScope(q.get("scope")), state };
  }

  async function verifiedClient(q: URLSearchParams): Promise<{ client: OAuthClientRow; redirectUri: string }> {
    if (q.getAll("client_id").length > 1 || q.getAll("redirect_uri").length > 1) {
      throw new AuthorizePageError("The request names more than one app or redirect address.");
    }
    const clientId = q.get("client_id");
    if (!clientId) throw new AuthorizePageError("The request does not say which app is asking (client_id is missing).");
    const client = await repo.clientById(clientId);
    if (!client)
      throw new AuthorizePageError(
        "The app that sent you here is not registered with this server. Ask it to connect again.",
      );
    const redirectUri = q.get("redirect_uri");
    if (!redirectUri)
      throw new AuthorizePageError("The request does not say where to send you back (redirect_uri is missing).");
    if (!redirectUrisOf(client).includes(redirectUri)) {
      throw new AuthorizePageError(
        "The app asked to send you back to an address it did not register, so Commonplace will not go there.",
      );
    }
    return { client, redirectUri };
  }

  /** The redirect back to the client, always with state and our issuer (RFC 9207 mix-up defence). */
  const answer = (p: { redirectUri: string; state?: string }, params: Record<string, string>) =>
    redirectUrl(p.redirectUri, { ...params, state: p.state, iss: issuer });

  return {
    async start(q: URLSearchParams): Promise<AuthorizeResult> {
      const { client, redirectUri } = await verifiedClient(q);
      try {
        const checked = checkParams(q);
        const now = clock.now();
        const id = newSecret("").slice(0, 32);
        await pending.put({ id, client, redirectUri, ...checked, expiresAt: now + PENDING_TTL_MS }, now);
        return { kind: "consent", requestId: id };
      } catch (e) {
        if (!(e instanceof OAuthError)) throw e;
        const state = q.getAll("state").length === 1 ? (q.get("state") ?? undefined) : undefined;
        return {
          kind: "redirect",
          location: answer({ redirectUri, state }, { error: e.error, error_description: e.description }),
        };
      }
    },

    pending: (id: string): Promise<PendingAuthorization | undefined> => pending.get(id, clock.now()),

    /** The user's answer. The request is used up either way; returns where to send the browser. */
    async decide(userId: string, id: string, allow: boolean): Promise<string> {
      const p = await pending.take(id, clock.now());
      if (!p)
        throw new AppError(
          "not_found",
          "This authorization request expired or was already answered. Go back to the app and connect again.",
        );
      if (!allow)
        return answer(p, { error: "access_denied", error_description: "The user declined to connect the app" });
      const code = newSecret(CODE_PREFIX);
      const now = clock.now();
      await repo.deleteExpiredCodes(iso(now));
      await repo.insertCode({
        codeHash: hashToken(code),
        clientId: p.client.id,
        userId,
        redirectUri: p.redirectUri,
        codeChallenge: p.codeChallenge,
        scope: p.scope,
        resource: p.resource,
        createdAt: iso(now),
        expiresAt: iso(now + CODE_TTL_MS),
        usedAt: null,
        grantId: null,
      });
      return answer(p, { code });
    },
  };
}
export type Authorizer = ReturnType<typeof createAuthorizer>;
