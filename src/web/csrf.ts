// CSRF defences for web forms: same-origin check on every POST and constant-time token comparison.
import { randomToken, sameSecret } from "../crypto.ts";
import { AppError } from "../errors.ts";

const TOKEN_RE = /^[A-Za-z0-9_-]{32,64}$/;

export function newCsrfToken(): string {
  return randomToken(24);
}

/** A token from a cookie is only reused when it has the shape we issue. */
export function isCsrfToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN_RE.test(value);
}

/**
 * Browsers send Origin on POSTs. It must be this server's: the BASE_URL origin, or the origin the
 * browser actually used (the request's own URL, built from its Host header), so opening the app at
 * 127.0.0.1 or a LAN address works too. Sec-Fetch-Site: same-origin (set only by browsers) also
 * passes, for proxies that rewrite Host. A cross-site post is refused either way; the form token is
 * checked separately.
 */
export function checkOrigin(request: Request, baseUrl: string): void {
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if (origin === null) {
    if (site === "cross-site" || site === "same-site")
      throw crossSite(`another site (Sec-Fetch-Site: ${site})`, baseUrl);
    return;
  }
  if (origin === new URL(baseUrl).origin || origin === requestOrigin(request) || site === "same-origin") return;
  throw crossSite(origin, baseUrl);
}

function requestOrigin(request: Request): string | null {
  try {
    return new URL(request.url).origin;
  } catch {
    return null;
  }
}

const crossSite = (from: string, baseUrl: string) =>
  new AppError(
    "csrf_failed",
    `This form was sent from ${from}, not from this site (${new URL(baseUrl).origin} or the address in your browser's bar).`,
  );

export function tokensMatch(expected: string | undefined, sent: string): boolean {
  if (!expected || !sent) return false;
  return sameSecret(expected, sent);
}

export function requireToken(expected: string | undefined, sent: string): void {
  if (!tokensMatch(expected, sent)) {
    throw new AppError(
      "csrf_failed",
      "The form has expired or did not come from this site. Go back, reload the page and try again.",
    );
  }
}
