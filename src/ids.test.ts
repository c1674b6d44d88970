import { describe, expect, test } from "bun:test";
import { isId, newId, ulid } from "./ids.ts";

describe("ids", () => {
  test("prefixed, 26 Crockford characters, recognised by kind", () => {
    const id = newId("source");
    expect(id).toMatch(/^src_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId("source", id)).toBe(true);
    expect(isId("notebook", id)).toBe(false);
  });

  test("the time part encodes the millisecond and sorts with it", () => {
    expect(ulid(0).slice(0, 10)).toBe("0000000000");
    expect(ulid(1469918176385).slice(0, 10)).toBe("01ARYZ6S41");
    const a = ulid(1_700_000_000_000);
    const b = ulid(1_700_000_000_001);
    expect(a < b).toBe(true);
  });

  test("monotonic within one millisecond, unique over many", () => {
    const ids = Array.from({ length: 5000 }, () => ulid(1_800_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
