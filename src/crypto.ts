// The secret-handling primitives every feature shares: one hash for stored secrets (API keys,
// OAuth tokens, webhook tokens, sessions), random tokens, and constant-time comparison.
import { timingSafeEqual } from "node:crypto";

/** SHA-256, hex: secrets are high-entropy, so a fast hash is enough and lookups stay indexable. */
export function hashSecret(secret: string): string {
  return Bun.SHA256.hash(secret, "hex") as string;
}

/** `bytes` random bytes, base64url (no padding). */
export function randomToken(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

/** String equality in time independent of where the strings differ (lengths may leak; values do not). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
