// The OAuth endpoints and discovery documents, at the top level (not under /api/v1). They answer
// in OAuth's JSON error format, so they parse their own bodies and build their own responses.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import { decodeUtf8, parseJson, readBody } from "../../http/body.ts";
import type { Config } from "../../config.ts";
import type { OAuthService } from "./service.ts";
import { pageResponse } from "../../http/html/html.ts";
import { clientAddress } from "../../http/client-address.ts";
import { errorPage } from "../../http/html/error-page.ts";
import { AuthorizePageError, OAuthError, oauthErrorResponse, oauthJson } from "./errors.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata.ts";
import { mediaType } from "../../media-type.ts";

const MAX_REGISTRATION_BYTES = 16 * 1024;
const MAX_FORM_BYTES = 16 * 1024;
const METADATA_HEADERS = { "cache-control": "public, max-age=300" };

interface PeerSource {
  requestIP(r: Request): { address: string } | null;
}

/** The body's text, read no further than maxBytes; OAuth's own error shape when it is larger. */
async function boundedText(request: Request, maxBytes: number, error: OAuthError): Promise<string> {
  try {
    return decodeUtf8(await readBody(request, maxBytes));
  } catch (e) {
    if (e instanceof AppError && e.code === "payload_too_large") throw error;
    if (e instanceof AppError) throw new OAuthError(error.error, e.detail ?? e.message);
    throw e;
  }
}

async function formBody(request: Request): Promise<URLSearchParams> {
  const type = mediaType(request.headers.get("content-type"));
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded");
  }
  return new URLSearchParams(
    await boundedText(
      request,
      MAX_FORM_BYTES,
      new OAuthError("invalid_request", `The form must be at most ${MAX_FORM_BYTES} bytes`),
    ),
  );
}

/** Client metadata as JSON; RFC 7591 wants its errors as invalid_client_metadata, so too-deep JSON is one too. */
async function jsonBody(request: Request, maxDepth: number): Promise<unknown> {
  const type = mediaType(request.headers.get("content-type"));
  if (type !== "application/json")
    throw new OAuthError("invalid_client_metadata", "Send the client metadata as application/json");
  const limit = new OAuthError(
    "invalid_client_metadata",
    `The metadata must be at most ${MAX_REGISTRATION_BYTES} bytes`,
  );
  const text = await boundedText(request, MAX_REGISTRATION_BYTES, limit);
  try {
    return parseJson(text, maxDepth);
  } catch (e) {
    if (e instanceof AppError)
      throw new OAuthError("invalid_client_metadata", e.detail ?? "The body is not valid JSON");
    throw e;
  }
}

/** Runs an endpoint and turns OAuthErrors into OAuth JSON errors; anything else is a real fault. */
async function oauthEndpoint(fn: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OAuthError) return oauthErrorResponse(e);
    throw e;
  }
}

export function oauthRoutes(s: { oauth: OAuthService; config: Pick<Config, "http"> }) {
  const { oauth } = s;
  const asMetadata = authorizationServerMetadata(oauth.issuer);
  const prm = protectedResourceMetadata(oauth.mcpResource, oauth.issuer);
  const metadata = (doc: unknown) => Response.json(doc, { headers: METADATA_HEADERS });

  return (
    new Elysia()
      // GET /.well-known/oauth-authorization-server (RFC 8414)
      .get("/.well-known/oauth-authorization-server", () => metadata(asMetadata))
      // GET /.well-known/oauth-protected-resource/mcp (RFC 9728), and the root variant for older clients
      .get("/.well-known/oauth-protected-resource/mcp", () => metadata(prm))
      .get("/.well-known/oauth-protected-resource", () => metadata(prm))
      // POST /oauth/register (RFC 7591)
      .post(
        "/oauth/register",
        ({ request, server }) =>
          oauthEndpoint(async () => {
            const body = await jsonBody(request, s.config.http.maxJsonDepth);
            return oauthJson(await oauth.register(body, clientAddress(request, server as PeerSource | null)), 201);
          }),
        { parse: "none" },
      )
      // GET /oauth/authorize — checks the request, then the consent page in the web app takes over.
      .get("/oauth/authorize", async ({ request }) => {
        try {
          const r = await oauth.authorize(new URL(request.url).searchParams);
          const location = r.kind === "redirect" ? r.location : `/oauth/consent?request=${r.requestId}`;
          return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
        } catch (e) {
          if (!(e instanceof AuthorizePageError)) throw e;
          const title = "This app cannot connect";
          return pageResponse(errorPage({ status: 400, title, detail: e.message }), { status: 400 });
        }
      })
      // POST /oauth/token
      .post(
        "/oauth/token",
        ({ request }) => oauthEndpoint(async () => oauthJson(await oauth.token(await formBody(request)))),
        { parse: "none" },
      )
      // POST /oauth/revoke (RFC 7009): 200 with an empty body whether or not the token existed.
      .post(
        "/oauth/revoke",
        ({ request }) =>
          oauthEndpoint(async () => {
            await oauth.revoke(await formBody(request));
            return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
          }),
        { parse: "none" },
      )
  );
}
