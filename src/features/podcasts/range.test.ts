// Range header parsing: single byte ranges, suffixes, clamping, and what is ignored or refused.
import { describe, expect, test } from "bun:test";
import { parseRange } from "./range.ts";

describe("parseRange", () => {
  test.each([
    ["bytes=0-99", { kind: "partial", start: 0, end: 99 }],
    ["bytes=100-199", { kind: "partial", start: 100, end: 199 }],
    ["bytes=900-", { kind: "partial", start: 900, end: 999 }],
    ["bytes=-100", { kind: "partial", start: 900, end: 999 }],
    ["bytes=-5000", { kind: "partial", start: 0, end: 999 }],
    ["bytes=990-5000", { kind: "partial", start: 990, end: 999 }],
    ["BYTES = 5-5", { kind: "partial", start: 5, end: 5 }],
  ])("%s on 1000 bytes", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected as never);
  });

  test.each(["bytes=1000-", "bytes=5000-6000", "bytes=-0", "bytes=9-2", "bytes=abc", "bytes=-", "bytes="])(
    "%s is unsatisfiable",
    (header) => {
      expect(parseRange(header, 1000)).toEqual({ kind: "unsatisfiable" });
    },
  );

  test("no header, another unit, or several ranges: the whole file", () => {
    expect(parseRange(null, 1000)).toEqual({ kind: "full" });
    expect(parseRange("items=0-5", 1000)).toEqual({ kind: "full" });
    expect(parseRange("bytes=0-1,5-9", 1000)).toEqual({ kind: "full" });
  });
});
