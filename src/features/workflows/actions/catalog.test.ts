// The action catalog is built from the modules it is given: lookups, order, the OpenAPI union, duplicates.
import { describe, expect, test } from "bun:test";
import { actionCatalog, coreActions } from "./catalog.ts";
import { checkActions } from "../definition.ts";
import type { ActionModule } from "./types.ts";

const limits = { maxActions: 10, maxConditionDepth: 3 };
const ctx = { tokenExists: () => true, workflowExists: () => true, notebookExists: () => true };

describe("actionCatalog", () => {
  test("knows exactly the modules it was given, in their order", () => {
    const catalog = actionCatalog(coreActions);
    expect(catalog.types).toEqual(coreActions.map((m) => m.type));
    expect(catalog.get("http_request")).toBe(coreActions[0]);
    expect(catalog.get("watch_feed")).toBeUndefined();
    expect(catalog.schema.anyOf).toHaveLength(coreActions.length);
  });

  test("save-time checks name only the catalog's types", () => {
    const catalog = actionCatalog(coreActions);
    const errors = checkActions(catalog, [{ id: "a", type: "watch_feed" }], { type: "webhook" }, limits, ctx);
    expect(errors).toEqual([{ path: "actions[0].type", message: `must be one of: ${catalog.types.join(", ")}` }]);
  });

  test("refuses two modules with one type", () => {
    const twice: ActionModule[] = [coreActions[0]!, coreActions[0]!];
    expect(() => actionCatalog(twice)).toThrow("two workflow action modules have the type http_request");
  });
});
