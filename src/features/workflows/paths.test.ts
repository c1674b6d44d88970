// Paths through nested action lists: what runs after a step, entering and leaving branches.
import { describe, expect, test } from "bun:test";
import { actionAt, enterBranch, nextAfter, type ActionDef } from "./paths.ts";

const a = (id: string, extra: Record<string, unknown> = {}): ActionDef => ({ id, type: "x", ...extra });
const def: ActionDef[] = [
  a("one"),
  a("cond", { type: "condition", then: [a("t1"), a("inner", { then: [a("deep")], else: [] })], else: [a("e1")] }),
  a("last"),
];

describe("paths", () => {
  test("actionAt finds nested actions and refuses bad paths", () => {
    expect(actionAt(def, "actions[1].then[1].then[0]")?.id).toBe("deep");
    expect(actionAt(def, "actions[1].else[0]")?.id).toBe("e1");
    expect(actionAt(def, "actions[9]")).toBeUndefined();
    expect(actionAt(def, "actions[0].then[0]")).toBeUndefined();
    expect(actionAt(def, "nonsense")).toBeUndefined();
  });

  test("nextAfter goes to the next sibling, else climbs out of the branch", () => {
    expect(nextAfter(def, "actions[0]")).toBe("actions[1]");
    expect(nextAfter(def, "actions[1].then[0]")).toBe("actions[1].then[1]");
    expect(nextAfter(def, "actions[1].then[1].then[0]")).toBe("actions[2]");
    expect(nextAfter(def, "actions[1].else[0]")).toBe("actions[2]");
    expect(nextAfter(def, "actions[2]")).toBeNull();
  });

  test("enterBranch opens the chosen branch, or skips an empty one", () => {
    expect(enterBranch(def, "actions[1]", "then")).toBe("actions[1].then[0]");
    expect(enterBranch(def, "actions[1]", "else")).toBe("actions[1].else[0]");
    expect(enterBranch(def, "actions[1].then[1]", "else")).toBe("actions[2]");
    expect(enterBranch([a("c", { then: [] })], "actions[0]", "then")).toBeNull();
  });
});
