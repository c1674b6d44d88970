import { expect, test } from "bun:test";
import { numberPlaceholders, sqlRow, sqlRows } from "./inspect.ts";
import { openTestDatabase } from "./client.ts";

test("question marks outside quotes become numbered placeholders", () => {
  expect(numberPlaceholders("SELECT '?' AS q, a FROM t WHERE b = ? AND c = \"x?\" AND d = ?")).toBe(
    "SELECT '?' AS q, a FROM t WHERE b = $1 AND c = \"x?\" AND d = $2",
  );
});

test("rows come back from the engine the test runs on", async () => {
  const db = openTestDatabase();
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    "u1",
    "a@example.com",
    "A",
    "x",
    "2026-01-01T00:00:00.000Z",
    "2026-01-01T00:00:00.000Z",
  );
  expect(await sqlRow<{ email: string }>(db, "SELECT email FROM users WHERE id = ?", "u1")).toEqual({
    email: "a@example.com",
  });
  await db.close();
});
