// OAuth on PostgreSQL with two processes (two pools on one schema; runs when DATABASE_URL names a server):
// a request parked by one process is shown and answered by the other, and answered only once.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl, testConfig } from "../../config.ts";
import { testSchemaName, type EngineDb } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { pgAsDb } from "../../db/pg/as-db.ts";
import { openPostgres } from "../../db/pg/client.ts";
import { AppError } from "../../errors.ts";
import { createOAuthRepo } from "./repo.ts";
import { CODE_PREFIX, s256 } from "./secrets.ts";
import { createOAuthService } from "./service.ts";
import { createSharedState } from "../../stores.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.end()));
});

const REDIRECT = "http://127.0.0.1:8976/callback";
const config = testConfig();

function process(schema: string) {
  const db = pgAsDb(openPostgres(url!, { schema, max: 4, idleTimeout: 2 }));
  opened.push(db);
  return createOAuthService({
    repo: createOAuthRepo(db),
    db,
    clock: { now: () => Date.now() },
    config,
    pending: createSharedState(db).pendingAuthorizations(),
    rateLimiters: createSharedState(db).rateLimiters,
  });
}

describe.skipIf(!url)("OAuth pending authorisations on PostgreSQL", () => {
  test("authorised on one process, shown and consented on the other; a second answer finds nothing", async () => {
    const schema = testSchemaName();
    const [a, b] = [process(schema), process(schema)];
    const db = opened.at(-1)!;
    await sqlRows(
      db,
      "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES ('usr_1', 'a@example.com', 'a', 'x', 'free', '2024-01-01', '2024-01-01')",
    );
    const client = await a.register({ client_name: "Two-process client", redirect_uris: [REDIRECT] }, "127.0.0.1");
    const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const started = await a.authorize(
      new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge: s256(verifier),
        code_challenge_method: "S256",
        resource: a.mcpResource,
        state: "st-1",
      }),
    );
    if (started.kind !== "consent") throw new Error(`expected a consent step, got ${started.location}`);

    const shown = await b.pendingAuthorization(started.requestId);
    expect(shown).toMatchObject({ redirectUri: REDIRECT, state: "st-1", client: { id: client.client_id } });
    expect(shown!.client.name).toBe("Two-process client");

    const back = new URL(await b.decide("usr_1", started.requestId, true));
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("code")).toStartWith(CODE_PREFIX);
    expect(await sqlRow(db, "SELECT count(*) AS n FROM oauth_codes WHERE client_id = ?", client.client_id)).toEqual({
      n: 1,
    });
    // Used up: neither process shows or answers it again.
    expect(await a.pendingAuthorization(started.requestId)).toBeUndefined();
    const again = await a.decide("usr_1", started.requestId, true).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).code).toBe("not_found");
  }, 30_000);

  test("two processes answering one request at once: exactly one gets a code", async () => {
    const schema = testSchemaName();
    const [a, b] = [process(schema), process(schema)];
    const db = opened.at(-1)!;
    await sqlRows(
      db,
      "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES ('usr_1', 'a@example.com', 'a', 'x', 'free', '2024-01-01', '2024-01-01')",
    );
    const client = await a.register({ redirect_uris: [REDIRECT] }, "127.0.0.1");
    const q = (challenge: string) =>
      new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: "S256",
        resource: a.mcpResource,
      });
    for (let i = 0; i < 5; i++) {
      const started = await b.authorize(q(s256(`verifier-${i}`.padEnd(43, "x"))));
      if (started.kind !== "consent") throw new Error("expected a consent step");
      const results = await Promise.allSettled([
        a.decide("usr_1", started.requestId, true),
        b.decide("usr_1", started.requestId, true),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    }
    expect(await sqlRow(db, "SELECT count(*) AS n FROM oauth_codes")).toEqual({ n: 5 });
  }, 30_000);
});
