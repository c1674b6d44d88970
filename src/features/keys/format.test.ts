// Key format: shape, offline checksum, display hint, hashing and uniqueness of generated keys.
import { describe, expect, test } from "bun:test";
import { hashSecret } from "../../crypto.ts";
import { checkKey, generateKey, keyHint } from "./format.ts";

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_SHAPE = /^cpk_[0-9A-Za-z]{46}$/;

/** Replaces the character at `i` with a different base62 character. */
function flip(key: string, i: number, step = 1): string {
  const c = key[i]!;
  const other = B62[(B62.indexOf(c) + step) % 62]!;
  return key.slice(0, i) + other + key.slice(i + 1);
}

describe("generateKey", () => {
  test("has the documented shape and a valid checksum", () => {
    for (let i = 0; i < 200; i++) {
      const key = generateKey();
      expect(key).toMatch(KEY_SHAPE);
      expect(key).toHaveLength(50);
      expect(checkKey(key)).toBe("ok");
    }
  });

  test("keys do not repeat and use the whole alphabet", () => {
    const keys = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const key = generateKey();
      keys.add(key);
      for (const c of key.slice(4, 44)) seen.add(c);
    }
    expect(keys.size).toBe(5000);
    expect(seen.size).toBe(62);
  });
});

describe("checkKey", () => {
  const key = generateKey();

  test("any single changed character fails the checksum", () => {
    for (let i = 4; i < key.length; i++) {
      for (const step of [1, 31, 61]) expect(checkKey(flip(key, i, step))).toBe("bad_checksum");
    }
  });

  test("swapping two different neighbouring characters fails the checksum", () => {
    const i = [...key.slice(4, 43)].findIndex((c, j) => c !== key[4 + j + 1]) + 4;
    const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
    expect(checkKey(swapped)).toBe("bad_checksum");
  });

  test("anything that is not cpk_ + 46 base62 characters is malformed", () => {
    for (const bad of [
      "",
      "cpk_",
      key.slice(0, -1),
      `${key}0`,
      `cpx_${key.slice(4)}`,
      `CPK_${key.slice(4)}`,
      `${key.slice(0, 10)}-${key.slice(11)}`,
      `${key.slice(0, 10)}_${key.slice(11)}`,
      ` ${key}`,
      `${key}\n`,
    ]) {
      expect(checkKey(bad)).toBe("malformed");
    }
  });
});

describe("keyHint and hashSecret", () => {
  test("the hint shows the prefix and the last four characters only", () => {
    const key = generateKey();
    const hint = keyHint(key);
    expect(hint).toBe(`${key.slice(0, 8)}…${key.slice(-4)}`);
    expect(hint.startsWith("cpk_")).toBe(true);
    expect(hint.length).toBeLessThan(20);
  });

  test("the stored hash is SHA-256 hex, stable, and differs per key", () => {
    const key = generateKey();
    expect(hashSecret(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(key)).toBe(hashSecret(key));
    expect(hashSecret(key)).toBe(new Bun.CryptoHasher("sha256").update(key).digest("hex"));
    expect(hashSecret(flip(key, 10))).not.toBe(hashSecret(key));
  });
});
