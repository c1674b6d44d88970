// Test support for repository tests on either engine: owners inserted directly, without the accounts feature.
import { sqlRows } from "../../../db/inspect.ts";
import type { EngineDb } from "../../../db/port.ts";
import { createSourcesRepo, type SourcesRepo } from "./repo.ts";

export const T0 = "2026-01-01T00:00:00.000Z";

/** Inserts a user row (the owner every library table references). */
export async function insertUser(db: EngineDb, id: string): Promise<void> {
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, ?, 'x', 'free', ?, ?)",
    id,
    `${id}@example.com`,
    id,
    T0,
    T0,
  );
}

/** Inserts a bare source row of `userId` (address "u", created at T0), with any other columns given. */
export async function insertSource(
  db: EngineDb,
  id: string,
  userId: string,
  extra: Partial<Parameters<SourcesRepo["insert"]>[0]> = {},
): Promise<void> {
  await createSourcesRepo(db).insert({
    id,
    userId,
    url: "u",
    normalizedUrl: "u",
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });
}
