// Saving something that names a row being deleted (a notebook, a webhook token): a 201 or a 422, never a 500.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "./helpers.ts";
import { interleave } from "./races.ts";

describe("references checked inside the transaction", () => {
  for (const kind of ["sources", "notes"] as const) {
    test(`POST /${kind} racing DELETE /notebooks/{id}`, async () => {
      const ctx = createTestContext();
      const { key } = await userWithKey(ctx);
      let nb = "";
      let i = 0;
      await interleave(
        25,
        async () => {
          nb = (await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "doomed" } })).body.id;
          const body =
            kind === "sources"
              ? { url: `https://example.com/a${i++}`, notebook_ids: [nb] }
              : { content: "a note", notebook_id: nb };
          return {
            a: () => call(ctx, "POST", `/api/v1/${kind}`, { key, body }),
            b: () => call(ctx, "DELETE", `/api/v1/notebooks/${nb}`, { key }),
          };
        },
        (n, [created, deleted]) => {
          const status = (r: PromiseSettledResult<unknown>) =>
            r.status === "fulfilled" ? (r.value as { status: number }).status : 0;
          expect({ n, created: [201, 422].includes(status(created)) }).toEqual({ n, created: true });
          expect({ n, deleted: status(deleted) }).toEqual({ n, deleted: 200 });
        },
      );
    });
  }

  test("POST /workflows naming a token racing DELETE /webhook-tokens/{id}", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    let token = "";
    await interleave(
      25,
      async () => {
        token = (await call(ctx, "POST", "/api/v1/webhook-tokens", { key, body: {} })).body.id;
        const body = {
          name: "hook",
          trigger: { type: "webhook", token_id: token },
          actions: [{ id: "n", type: "create_notebook", name: "NB" }],
        };
        return {
          a: () => call(ctx, "POST", "/api/v1/workflows", { key, body }),
          b: () => call(ctx, "DELETE", `/api/v1/webhook-tokens/${token}`, { key }),
        };
      },
      (n, [created, deleted]) => {
        const status = (r: PromiseSettledResult<unknown>) =>
          r.status === "fulfilled" ? (r.value as { status: number }).status : 0;
        // Either the workflow came first (the token is in use: 409) or the token went first (422).
        expect({ n, pair: [status(created), status(deleted)] }).toEqual({
          n,
          pair: status(created) === 201 ? [201, 409] : [422, 200],
        });
      },
    );
  });
});
