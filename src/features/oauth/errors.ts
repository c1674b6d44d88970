// OAuth's own error format (RFC 6749 §5.2, RFC 6750, RFC 7591): JSON bodies and redirect parameters,
// never problem+json, because OAuth clients parse `error` and `error_description`.
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "consent_required"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "unsupported_token_type"
  | "slow_down"
  | "server_error";

const STATUS: Partial<Record<OAuthErrorCode, number>> = { invalid_client: 401, slow_down: 429, server_error: 500 };

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
  get status(): number {
    return STATUS[this.error] ?? 400;
  }
}

/** Token, registration and revocation responses must never be cached (RFC 6749 §5.1). */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...NO_STORE, ...headers },
  });
}

export function oauthErrorResponse(e: OAuthError): Response {
  return oauthJson({ error: e.error, error_description: e.description }, e.status, e.headers);
}

/** The authorization response or error, as query parameters on the client's registered redirect URI. */
export function redirectUrl(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.href;
}

/**
 * An authorization request that cannot be answered by redirecting (unknown client, unregistered
 * redirect URI): the user sees an error page instead, so codes never reach an unregistered URI.
 */
export class AuthorizePageError extends Error {}
