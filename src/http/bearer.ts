// The one parser of `Authorization: Bearer <token>` (RFC 6750 §2.1), shared by the API and MCP.
const BEARER_RE = /^Bearer\s+(\S+)\s*$/i;

export type BearerResult = { token: string } | { problem: "missing" | "malformed" };

/** The bearer token of a request, or why there is none: no Authorization header, or another shape. */
export function bearerToken(request: Request): BearerResult {
  const header = request.headers.get("authorization");
  if (!header) return { problem: "missing" };
  const token = BEARER_RE.exec(header)?.[1];
  return token ? { token } : { problem: "malformed" };
}
