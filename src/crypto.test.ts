// The shared secret primitives: stored-secret hash, random tokens, constant-time comparison.
import { expect, test } from "bun:test";
import { hashSecret, randomToken, sameSecret } from "./crypto.ts";

test("hashSecret is hex SHA-256", () => {
  expect(hashSecret("cpk_example")).toBe(new Bun.CryptoHasher("sha256").update("cpk_example").digest("hex"));
});

test("randomToken gives base64url of the asked number of bytes, different each time", () => {
  const a = randomToken(32);
  expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(randomToken(24)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(randomToken(32)).not.toBe(a);
});

test("sameSecret is equality, including for different lengths and non-ASCII", () => {
  expect(sameSecret("abc", "abc")).toBe(true);
  expect(sameSecret("abc", "abd")).toBe(false);
  expect(sameSecret("abc", "abcd")).toBe(false);
  expect(sameSecret("", "")).toBe(true);
  expect(sameSecret("é", "e")).toBe(false);
});
