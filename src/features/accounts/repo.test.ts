// The accounts repository on the Db port: the prepared lookup by id maps columns like drizzle does.
import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import { createAccountsRepo } from "./repo.ts";

describe("accounts repo", () => {
  test("userById returns the whole row in drizzle's shape, undefined when absent", async () => {
    const db = openTestDatabase();
    const repo = createAccountsRepo(db);
    const row = {
      id: "usr_1",
      email: "Ada@example.com",
      name: "Ada",
      passwordHash: "h",
      planId: "free",
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-02T00:00:00.000Z",
      preferences: "{}",
    };
    await repo.insertUser(row);
    expect(await repo.userById("usr_1")).toEqual(row);
    expect(await repo.userById("usr_1")).toEqual((await repo.userByEmail("ada@EXAMPLE.com"))!);
    expect(await repo.userById("usr_2")).toBeUndefined();
    db.close();
  });
});
