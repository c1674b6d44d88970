// CSRF defences for web forms: same-origin check on every POST and constant-time token comparison.
import { timingSafeEqual } from "node:crypto";
import { AppError } from "../../errors.ts";

const TOKEN_RE = /^[A-Za-z0-9_-]{32,64}$/;

export function newCsrfToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}

/** A token from a cookie is only reused when it has the shape we issue. */
export function isCsrfToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN_RE.test(value);
}

/** Browsers send Origin on POSTs; when present it must be this server's own (BASE_URL) origin. */
export function checkOrigin(request: Request, baseUrl: string): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const ours = new URL(baseUrl).origin;
  if (origin !== ours) {
    throw new AppError(
      "csrf_failed",
      `This form was sent from ${origin}, but this server's address is ${ours}. If that is the address you use, set BASE_URL to it.`,
    );
  }
}

export function tokensMatch(expected: string | undefined, sent: string): boolean {
  if (!expected || !sent) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function requireToken(expected: string | undefined, sent: string): void {
  if (!tokensMatch(expected, sent)) {
    throw new AppError("csrf_failed", "The form has expired or did not come from this site. Go back, reload the page and try again.");
  }
}
