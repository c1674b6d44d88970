// Opaque OAuth secrets (codes, access and refresh tokens) and the PKCE S256 check.
import { hashSecret, randomToken, sameSecret } from "../../crypto.ts";

export const ACCESS_PREFIX = "cpat_";
export const REFRESH_PREFIX = "cprt_";
export const CODE_PREFIX = "cpac_";

/** 256 random bits, base64url, behind a prefix that says what the secret is (and helps leak scanners). */
export function newSecret(prefix: string): string {
  return prefix + randomToken(32);
}

/** Secrets are stored as SHA-256: the same hash as API keys, so one helper serves both. */
export const hashToken = hashSecret;

const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

/** An S256 challenge is the base64url SHA-256 of the verifier: always 43 characters. */
export const isS256Challenge = (value: string): boolean => CHALLENGE_RE.test(value);
export const isVerifier = (value: string): boolean => VERIFIER_RE.test(value);

export function s256(verifier: string): string {
  return new Bun.CryptoHasher("sha256").update(verifier).digest("base64url");
}

export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!isVerifier(verifier)) return false;
  return sameSecret(s256(verifier), challenge);
}
