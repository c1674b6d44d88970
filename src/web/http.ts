// Request plumbing for the web app: cookies, form fields and redirects.

export const SESSION_COOKIE = "cp_session";
export const CSRF_COOKIE = "cp_csrf";

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Our cookie values are base64url tokens, so they need no encoding. */
export function cookie(name: string, value: string, opts: { secure: boolean; maxAgeSeconds?: number }): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`);
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

/** One text field of a parsed urlencoded or multipart body; anything else reads as empty. */
export function formField(body: unknown, name: string): string {
  if (!body || typeof body !== "object") return "";
  const v = (body as Record<string, unknown>)[name];
  if (typeof v === "string") return v;
  if (Array.isArray(v) && typeof v[0] === "string") return v[0];
  return "";
}

export function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
}

/** Sign in first, then come back to `path` (a local path with its query): every page's guard. */
export const signInFirst = (path: string): Response => redirect(`/signin?next=${encodeURIComponent(path)}`);

/** The longest path to come back to: room for a shared link of 2048 characters, encoded, and its title. */
export const MAX_NEXT = 4096;

/** Where to go after signing in: only a path on this site, never another origin. */
export function safeNext(next: string | undefined, fallback = "/library"): string {
  if (!next || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next) || next.length > MAX_NEXT) return fallback;
  return next;
}
