// A key-creation form submitted twice at once (a double click) makes one key, not two.
import { describe, expect, test } from "bun:test";
import { createTestContext, userWithKey } from "../../test/helpers.ts";
import { interleave } from "../../test/races.ts";
import { createWebService } from "./service.ts";
import { createSharedState } from "../stores.ts";

describe("web: one key per form", () => {
  test("two concurrent submissions of one form", async () => {
    const ctx = createTestContext();
    const s = ctx.services;
    const web = createWebService({
      accounts: s.accounts,
      keys: s.keys,
      oauth: s.oauth,
      config: s.config,
      clock: s.clock,
      db: s.db,
      ...createSharedState(s.db),
    });
    const user = await userWithKey(ctx);
    const actor = { userId: user.userId, auth: { type: "session" as const, session_id: "s" } };
    let formId = "";
    await interleave(
      10,
      async (n) => {
        formId = `form-${n}-${"x".repeat(16)}`;
        return {
          a: () => web.createKey(actor, `k${n}`, formId),
          b: () => web.createKey(actor, `k${n}`, formId),
        };
      },
      async (n, results) => {
        const made = results.filter((r) => r.status === "fulfilled" && r.value !== "already_used");
        const keys = await s.keys.listRows(actor, { limit: 100 });
        expect({ n, made: made.length, rows: keys.filter((k) => k.name === `k${n}`).length }).toEqual({
          n,
          made: 1,
          rows: 1,
        });
      },
    );
  });
});
