// File-name slugs: ASCII, no reserved names, bounded length, a fallback when nothing is left.
import { expect, test } from "bun:test";
import { slugify } from "./slug.ts";

test.each([
  ["Hello, World!", "hello-world"],
  ["Crème brûlée: a history", "creme-brulee-a-history"],
  ["CON", "con-file"],
  ["...", "fallback"],
  ['a/b\\c:d*e?f"g<h>i|j', "a-b-c-d-e-f-g-h-i-j"],
  ["x".repeat(200), "x".repeat(80)],
])("%s → %s", (input, out) => expect(slugify(input, "fallback")).toBe(out));
