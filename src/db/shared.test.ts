// The shared builder's contract, run on whichever engine the test run uses (SQLite by default, the
// PostgreSQL lane with DATABASE_URL): values come back as they went in, writes inside tx commit or roll
// back with it, and the SQL the SQLite dialect writes is turned into what PostgreSQL takes.
import { afterAll, describe, expect, test } from "bun:test";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { openTestDatabase } from "./client.ts";
import { imports, podcasts, sources, users, workflows } from "./schema/index.ts";
import { isWrite, numberParameters, toPostgres } from "./shared.ts";

const db = openTestDatabase();
afterAll(async () => {
  db.close();
  await db.end();
});
const at = "2026-01-01T00:00:00.000Z";
const user = (id: string) => ({
  id,
  email: `${id}@example.com`,
  name: id,
  passwordHash: "x",
  createdAt: at,
  updatedAt: at,
});

describe(`shared SQL on ${db.engine}`, () => {
  test("booleans, JSON, blobs, nulls and counts come back as they went in", async () => {
    await db.shared.insert(users).values(user("u1"));
    await db.shared.insert(workflows).values([
      {
        id: "w1",
        userId: "u1",
        name: "on",
        active: true,
        triggerType: "event",
        eventType: "source.ready",
        triggerJson: "{}",
        actionsJson: "[]",
        signingSecret: "s",
        createdAt: at,
        updatedAt: at,
      },
      {
        id: "w2",
        userId: "u1",
        name: "off",
        active: false,
        triggerType: "event",
        eventType: null,
        triggerJson: "{}",
        actionsJson: "[]",
        signingSecret: "s",
        createdAt: at,
        updatedAt: at,
      },
    ]);
    const rows = await db.shared
      .select({ id: workflows.id, active: workflows.active, eventType: workflows.eventType })
      .from(workflows)
      .orderBy(workflows.id);
    expect(rows).toEqual([
      { id: "w1", active: true, eventType: "source.ready" },
      { id: "w2", active: false, eventType: null },
    ]);
    expect(await db.shared.select({ id: workflows.id }).from(workflows).where(eq(workflows.active, false))).toEqual([
      { id: "w2" },
    ]);
    const [{ n }] = (await db.shared.select({ n: count() }).from(workflows).where(eq(workflows.userId, "u1"))) as [
      { n: number },
    ];
    expect(n).toBe(2);

    const file = Buffer.from([0, 1, 2, 255, 0x1f, 0x8b]);
    await db.shared.insert(imports).values({
      id: "i1",
      userId: "u1",
      format: "urls",
      fileSha256: "h",
      file,
      status: "queued",
      createdAt: at,
      updatedAt: at,
    });
    const imp = await db.shared
      .select({ file: imports.file, total: imports.total })
      .from(imports)
      .where(eq(imports.id, "i1"))
      .get();
    expect(Buffer.from(imp!.file!)).toEqual(file);
    expect(imp!.total).toBe(0);

    await db.shared.insert(podcasts).values({
      id: "p1",
      userId: "u1",
      format: "brief",
      language: "en",
      origin: "api",
      creditsQuoted: 3,
      status: "queued",
      title: "T",
      sourceIds: ["a", "b"],
      transcript: [{ speaker: "A", text: "Hi 'there' ?" }],
      createdAt: at,
      updatedAt: at,
    } as typeof podcasts.$inferInsert);
    const pod = await db.shared
      .select({ sourceIds: podcasts.sourceIds, transcript: podcasts.transcript })
      .from(podcasts)
      .get();
    expect(pod).toEqual({ sourceIds: ["a", "b"], transcript: [{ speaker: "A", text: "Hi 'there' ?" }] });
    expect(await db.shared.select().from(users).where(eq(users.id, "nobody")).get()).toBeUndefined();
  });

  test("RETURNING, ON CONFLICT and the count of rows a write changed", async () => {
    await db.shared.insert(users).values(user("u2"));
    const back = await db.shared.insert(users).values(user("u3")).returning({ id: users.id });
    expect(back).toEqual([{ id: "u3" }]);
    await db.shared
      .insert(users)
      .values({ ...user("u3"), name: "again" })
      .onConflictDoUpdate({ target: users.id, set: { name: "again" } });
    await db.shared
      .insert(users)
      .values({ ...user("u3"), name: "ignored" })
      .onConflictDoNothing();
    expect((await db.shared.select({ name: users.name }).from(users).where(eq(users.id, "u3")).get())?.name).toBe(
      "again",
    );
    const changed = (await db.shared
      .update(users)
      .set({ planId: "pro" })
      .where(and(eq(users.planId, "free"), sql`${users.id} in ('u2', 'u3')`))) as unknown as { changes: number };
    expect(changed.changes).toBe(2);
    expect(
      await db.shared.select({ id: users.id }).from(users).where(eq(users.planId, "pro")).orderBy(desc(users.id)),
    ).toEqual([{ id: "u3" }, { id: "u2" }]);
  });

  test("statements inside tx commit together or not at all", async () => {
    await expect(
      db.tx(async () => {
        await db.shared.insert(users).values(user("u4"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.shared.select().from(users).where(eq(users.id, "u4")).get()).toBeUndefined();
    await db.tx(async () => {
      await db.shared.insert(users).values(user("u5"));
      await db.shared.insert(sources).values({
        id: "s1",
        userId: "u5",
        url: "https://e.com/",
        normalizedUrl: "https://e.com/",
        status: "pending",
        createdAt: at,
        updatedAt: at,
      } as typeof sources.$inferInsert);
    });
    expect((await db.shared.select({ archived: sources.archived }).from(sources).get())?.archived).toBe(false);
  });
});

describe("SQLite's SQL for PostgreSQL", () => {
  test("parameters are numbered outside quotes; conflict targets lose their table", () => {
    expect(numberParameters(`select "a?" from t where x = ? and y = 'it''s ?' and z = ?`)).toBe(
      `select "a?" from t where x = $1 and y = 'it''s ?' and z = $2`,
    );
    expect(toPostgres(`insert into "t" ("a") values (?) on conflict ("t"."a", "t"."b") do update set "a" = ?`)).toBe(
      `insert into "t" ("a") values ($1) on conflict ("a", "b") do update set "a" = $2`,
    );
  });

  test("writes are told from reads by their first word, whatever method runs them", () => {
    expect(isWrite('insert into "t" values (?) returning "id"')).toBe(true);
    expect(isWrite("  UPDATE t SET a = 1")).toBe(true);
    expect(isWrite('select * from "t"')).toBe(false);
  });
});
