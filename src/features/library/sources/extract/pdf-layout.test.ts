import { describe, expect, test } from "bun:test";
import { joinLines } from "./pdf-layout.ts";

describe("joinLines", () => {
  test("a word hyphenated at the end of a line is joined; a hyphen before a capital or a number stays", () => {
    expect(joinLines(["studied for dec-", "ades by naturalists"])).toBe("studied for decades by naturalists");
    expect(joinLines(["the Anglo-", "Saxon chronicle"])).toBe("the Anglo- Saxon chronicle");
    expect(joinLines(["in 1990-", "2000 the"])).toBe("in 1990- 2000 the");
  });

  test("soft hyphens are dropped wherever they are, and other lines are joined with a space", () => {
    expect(joinLines(["infor\u00ADma\u00AD", "tion retrieval"])).toBe("information retrieval");
    expect(joinLines(["one line", "and the next"])).toBe("one line and the next");
  });
});
