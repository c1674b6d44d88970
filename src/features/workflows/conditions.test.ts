// Tests for the workflow condition test: every operator both ways, coercions, all/any and the schema.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { ConditionSchema, OPS, type Op, applyOp, evaluateCondition, validateCondition } from "./conditions.ts";

type Row = [unknown, unknown, boolean];

// Operands here are already rendered values.
const CASES: Record<Op, Row[]> = {
  eq: [
    ["a", "a", true],
    ["a", "A", false],
    [3, 3, true],
    [3, "3", true],
    ["3.0", 3, true],
    [-1.5, "-1.5", true],
    [1000, "1e3", true],
    ["3", 4, false],
    ["3", "3.0", false], // two strings compare strictly
    [3, " 3", false],
    [16, "0x10", false],
    [0, "", false],
    [true, "true", false],
    [true, true, true],
    [null, "", false],
    [null, null, true],
    [[1, "2"], ["1", 2], true],
    [[1, 2], [2, 1], false],
    [[1], [1, 1], false],
    [{ a: 1, b: [2] }, { b: ["2"], a: "1" }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: undefined }, { b: undefined }, false],
    [{}, [], false],
  ],
  ne: [
    ["a", "b", true],
    [3, "3", false],
    ["a", "a", false],
    [[1], ["1"], false],
    [true, "true", true],
  ],
  contains: [
    ["hello world", "lo w", true],
    ["hello", "Hello", false],
    ["order 123", 123, true],
    ["hello", "", false],
    ["", "", false],
    [["a", "b"], "b", true],
    [["a", "b"], "c", false],
    [[1, 2], "2", true],
    [[{ id: 1 }], { id: "1" }, true],
    [["", "x"], "", true],
    [{ a: 1 }, "a", false],
    [42, 4, false],
    [null, "x", false],
  ],
  not_contains: [
    ["hello", "xyz", true],
    ["hello", "ell", false],
    [["a"], "a", false],
    [["a"], "b", true],
    ["", "x", true],
  ],
  starts_with: [
    ["https://x.com", "https://", true],
    ["http://x.com", "https://", false],
    ["404 Not Found", 4, true],
    ["abc", "", false],
    [404, "4", false],
    [["a"], "a", false],
    [null, "a", false],
  ],
  ends_with: [
    ["report.pdf", ".pdf", true],
    ["report.PDF", ".pdf", false],
    ["v2", 2, true],
    ["abc", "", false],
    [12, "2", false],
  ],
  gt: [
    [5, 3, true],
    [3, 5, false],
    [3, 3, false],
    ["10", "9", true], // numeric strings compare as numbers, not as text
    ["10", 9.5, true],
    ["2024-05-02", "2024-05-01T23:59:59Z", true],
    ["2024-05-01T10:00:00+02:00", "2024-05-01T09:00:00Z", false],
    ["2024-05-01T10:00:00+0200", "2024-05-01T07:59:00Z", true],
    ["2024-05-01T10:00:00", "2024-05-01T09:59:59Z", true], // no offset reads as UTC
    ["2024-05-01 10:00", "2024-05-01T09:59Z", true],
    ["b", "a", false], // text is not ordered
    ["2024-05-01", 5, false],
    [true, false, false],
    [null, -1, false],
    ["", -1, false],
    ["2024-13-45", "2024-01-01", false],
  ],
  gte: [
    [3, 3, true],
    ["3", 3, true],
    [2, 3, false],
    ["2024-05-01", "2024-05-01T00:00:00Z", true],
    // No offset reads as UTC: both directions hold only when the instants are equal.
    ["2024-05-01T10:00:00", "2024-05-01T10:00:00Z", true],
    ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00", true],
    ["2024-04-30", "2024-05-01", false],
  ],
  lt: [
    [2, 3, true],
    [3, 3, false],
    ["-5", "-4", true],
    ["2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z", true],
    ["abc", "abd", false],
    [[1], [2], false],
  ],
  lte: [
    [3, 3, true],
    [4, 3, false],
    ["1e2", 100, true],
    ["2024-05-01T12:00:00Z", "2024-05-01t12:00:00z", true],
    ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00", true],
    [null, 0, false],
  ],
  exists: [
    ["x", undefined, true],
    [0, undefined, true],
    [false, undefined, true],
    [[], undefined, true],
    [{}, undefined, true],
    [" ", undefined, true],
    ["", undefined, false],
    [null, undefined, false],
    [undefined, undefined, false],
  ],
  not_exists: [
    ["", undefined, true],
    [null, undefined, true],
    [undefined, undefined, true],
    [0, undefined, false],
    ["x", undefined, false],
  ],
  in: [
    ["b", ["a", "b"], true],
    ["c", ["a", "b"], false],
    ["2", [1, 2], true],
    [2, ["1", "2"], true],
    ["ell", "hello", true],
    [12, "a12b", true],
    ["", "hello", false],
    ["x", "", false],
    ["a", { a: 1 }, false],
    ["a", null, false],
  ],
};

describe("applyOp", () => {
  test("every operator has cases", () => {
    expect(Object.keys(CASES).sort()).toEqual([...OPS].sort());
    for (const op of OPS) expect(new Set(CASES[op].map((r) => r[2]))).toEqual(new Set([true, false]));
  });

  for (const op of OPS) {
    test.each(CASES[op])(`${op}: %j vs %j → %p`, (left, right, expected) => {
      expect(applyOp(op, left, right)).toBe(expected);
    });
  }
});

describe("evaluateCondition", () => {
  const scope = {
    status: 404,
    title: "Weekly digest",
    tags: ["news", "ai"],
    trigger: { published: "2024-05-01T10:00:00Z", count: "12" },
    steps: { save: { source: { id: "src_1" } } },
  };

  test("renders templates in left and right, keeping types, and reports each clause", () => {
    const out = evaluateCondition(
      {
        all: [
          { left: "{{ status }}", op: "gte", right: 400 },
          { left: "{{ tags }}", op: "contains", right: "ai" },
          { left: "Title: {{ title }}", op: "starts_with", right: "Title: Weekly" },
          { left: "{{ trigger.count }}", op: "in", right: ["{{ status }}", 12] },
        ],
      },
      scope,
    );
    expect(out.result).toBe(true);
    expect(out.details).toEqual([
      { left: 404, op: "gte", right: 400, result: true },
      { left: ["news", "ai"], op: "contains", right: "ai", result: true },
      { left: "Title: Weekly digest", op: "starts_with", right: "Title: Weekly", result: true },
      { left: "12", op: "in", right: [404, 12], result: true },
    ]);
    expect(out.missing).toEqual([]);
  });

  test("missing values render empty, fail exists and are reported", () => {
    const out = evaluateCondition(
      {
        all: [
          { left: "{{ steps.notify.response.status }}", op: "not_exists" },
          { left: "{{ title }}", op: "contains", right: "{{ keyword }}" },
        ],
      },
      scope,
    );
    expect(out.details.map((d) => d.result)).toEqual([true, false]);
    expect(out.result).toBe(false);
    expect(out.missing).toEqual(["steps.notify.response.status", "keyword"]);
  });

  test.each<[string, { all?: boolean[]; any?: boolean[] }, boolean]>([
    ["all true", { all: [true, true] }, true],
    ["all with one false", { all: [true, false] }, false],
    ["any with one true", { any: [false, true] }, true],
    ["any all false", { any: [false, false] }, false],
    ["empty all is vacuously true", { all: [] }, true],
    ["empty any is false", { any: [] }, false],
    ["both hold", { all: [true], any: [false, true] }, true],
    ["all fails, any holds", { all: [false], any: [true] }, false],
    ["all holds, any fails", { all: [true], any: [false] }, false],
    ["neither list", {}, true],
  ])("%s", (_name, shape, expected) => {
    const clause = (b: boolean) => ({ left: "{{ title }}", op: b ? ("exists" as const) : ("not_exists" as const) });
    const cond = { all: shape.all?.map(clause), any: shape.any?.map(clause) };
    const out = evaluateCondition(cond, scope);
    expect(out.result).toBe(expected);
    expect(out.details).toHaveLength((shape.all?.length ?? 0) + (shape.any?.length ?? 0));
  });

  test("prototype paths are missing, not internals", () => {
    const out = evaluateCondition(
      {
        any: [
          { left: "{{ constructor }}", op: "exists" },
          { left: "{{ title.__proto__ }}", op: "exists" },
        ],
      },
      scope,
    );
    expect(out.result).toBe(false);
    expect(out.details.map((d) => d.left)).toEqual(["", ""]);
  });
});

describe("ConditionSchema and validateCondition", () => {
  test.each<[unknown, boolean]>([
    [{ all: [{ left: "{{ a }}", op: "eq", right: 1 }] }, true],
    [{ any: [{ left: "{{ a }}", op: "exists" }] }, true],
    [{ all: [], any: [] }, true],
    [{}, false],
    [{ all: [{ left: "x", op: "matches", right: "y" }] }, false],
    [{ all: [{ left: "x", op: "eq", right: "y", extra: 1 }] }, false],
    [{ all: [{ op: "exists" }] }, false],
    [{ none: [] }, false],
    [{ all: "nope" }, false],
  ])("schema on %j → %p", (cond, ok) => {
    expect(Value.Check(ConditionSchema, cond)).toBe(ok);
  });

  test("binary operators need right; templates must parse; paths point at the clause", () => {
    const errors = validateCondition(
      {
        all: [
          { left: "{{ a }}", op: "exists" },
          { left: "{{ a }}", op: "eq" },
        ],
        any: [{ left: "x", op: "in", right: ["{{ a | nope }}"] }],
      },
      "actions[1].if",
    );
    expect(errors).toEqual([
      { path: "actions[1].if.all[1].right", message: '"eq" needs a right-hand value' },
      { path: "actions[1].if.any[0].right[0]", message: expect.stringContaining('unknown filter "nope"') },
    ]);
    expect(validateCondition({ all: [{ left: "{{ a }}", op: "ne", right: null }] })).toEqual([]);
  });
});
