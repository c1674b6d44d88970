// Closed sign-up lets exactly one first account in, however many sign up at once; one email (in any
// case) makes one account.
import { describe, expect, test } from "bun:test";
import { createTestContext } from "../../../test/helpers.ts";
import { sqlRow } from "../../db/inspect.ts";

describe("accounts: the first sign-up of a closed server", () => {
  test("two concurrent sign-ups: one account, one signup_closed", async () => {
    const ctx = createTestContext({ ALLOW_SIGNUP: "false" });
    const { accounts } = ctx.services;
    const results = await Promise.allSettled(
      ["first@example.com", "second@example.com"].map((email) =>
        accounts.createUser({ email, password: "password123" }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected");
    expect((refused as PromiseRejectedResult | undefined)?.reason?.code).toBe("signup_closed");
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM users")).toEqual({ n: 1 });
  }, 30_000);
});

describe("accounts: one email, any case", () => {
  test("two concurrent sign-ups with one email in two cases: one account, one 409 conflict (never a 500)", async () => {
    const ctx = createTestContext();
    const { accounts } = ctx.services;
    const results = await Promise.allSettled(
      ["Same@Example.com", "same@example.COM"].map((email) => accounts.createUser({ email, password: "password123" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
    expect([refused?.reason?.code, refused?.reason?.status]).toEqual(["conflict", 409]);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM users")).toEqual({ n: 1 });
    expect((await accounts.userByEmail("SAME@example.com")).email).toBe(
      (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ email: string }>).value.email,
    );
  }, 30_000);
});
