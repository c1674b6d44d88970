// Errors find their fields: the API's dotted paths, JSON Pointer paths, and paths inside a field.
import { describe, expect, test } from "bun:test";
import { actionCatalog, coreActions } from "../../features/workflows/actions/catalog.ts";
import { sendEmail } from "../../features/mail/action.ts";
import type { Draft } from "./draft.ts";
import { fieldNames, normalizePath, placeErrors } from "./field-errors.ts";

const draft: Draft = {
  name: "w",
  active: true,
  trigger: { type: "webhook" },
  actions: [
    { id: "save", type: "create_source", url: "" },
    {
      id: "check",
      type: "condition",
      if: { any: [{ left: "", op: "eq" }] },
      then: [{ id: "r", type: "http_request", url: "", headers: { "X.Y": "1" } }],
    },
    { id: "mail", type: "send_email", to: ["a", "b"], subject: "", text: "" },
  ],
};

describe("placing errors", () => {
  test("pointer paths read like the API's", () => {
    expect(normalizePath("actions/2/url")).toBe("actions[2].url");
    expect(normalizePath("/actions/1/then/0/headers/X-A")).toBe("actions[1].then[0].headers.X-A");
    expect(normalizePath("trigger.event")).toBe("trigger.event");
  });

  test("each error goes to its field, or the nearest field above it, in page order", () => {
    const placed = placeErrors(
      [
        { path: "actions/2/to/1", message: "not an address" },
        { path: "actions[1].then[0].headers.X.Y", message: "bad header" },
        { path: "actions[1].if.any[0].op", message: "bad op" },
        { path: "actions[0].url", message: "empty" },
        { path: "actions[1].if", message: "needs all or any" },
        { path: "colour", message: "unknown" },
        { path: "actions[7].url", message: "gone" },
      ],
      fieldNames(draft, actionCatalog([...coreActions, sendEmail])),
    );
    expect(placed.map((e) => e.field)).toEqual([
      "actions",
      "actions[0].url",
      "actions[1].if",
      "actions[1].if.any[0].op",
      "actions[1].then[0].headers",
      "actions[2].to",
      "",
    ]);
  });
});
