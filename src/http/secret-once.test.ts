// The secret-once route trait: declaring it on a route is all it takes for the idempotency layer to
// keep no copy of the response and refuse to replay it; undeclared routes replay as usual.
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { openTestDatabase } from "../db/client.ts";
import { sqlRows } from "../db/inspect.ts";
import { silentLogger } from "../log.ts";
import { systemClock } from "../time.ts";
import { metaOf } from "./context.ts";
import { errorPlugin } from "./errors.ts";
import { idempotencyPlugin } from "./idempotency.ts";
import { createIdempotencyRepo } from "./idempotency-repo.ts";
import { secretOnce } from "./secret-once.ts";

function setup() {
  const db = openTestDatabase();
  let minted = 0;
  // A feature's routes: nothing but the trait tells the idempotency layer about the secret.
  const routes = new Elysia()
    .use(secretOnce)
    .post("/secret", () => ({ n: ++minted, secret: `s3cr3t-${minted}` }), { secretOnce: true })
    .post("/maybe", ({ body }) => ({ n: ++minted, ...(body as object) }), {
      secretOnce: (r: Record<string, unknown>) => Boolean(r.url),
    })
    .post("/plain", () => ({ n: ++minted }));
  const app = new Elysia()
    .use(errorPlugin(silentLogger, () => []))
    .use(new Elysia().use(idempotencyPlugin({ repo: createIdempotencyRepo(db), clock: systemClock })).use(routes));
  const post = async (path: string, key: string, body: unknown = {}) => {
    const request = new Request(`http://localhost${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", "idempotency-key": key },
    });
    metaOf(request).actor = { userId: "usr_1", auth: { type: "session", session_id: "ses_1" } };
    const res = await app.handle(request);
    return {
      status: res.status,
      replayed: res.headers.get("idempotent-replayed"),
      body: (await res.json()) as Record<string, unknown>,
    };
  };
  const stored = () =>
    sqlRows<{ key: string; response_body: string | null }>(
      db,
      "SELECT key, response_body FROM idempotency_keys ORDER BY key",
    );
  return { post, stored };
}

describe("secret-once route trait", () => {
  test("a declared route's response is not stored, and a repeat is refused instead of replayed", async () => {
    const { post, stored } = setup();
    const first = await post("/secret", "k1");
    expect(first).toMatchObject({ status: 200, body: { n: 1, secret: "s3cr3t-1" } });
    expect(await stored()).toEqual([{ key: "k1", response_body: null }]);
    const again = await post("/secret", "k1");
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("shown only once");
    // The handler did not run a second time.
    expect((await post("/plain", "k2")).body.n).toBe(2);
  });

  test("an undeclared route is stored and replayed", async () => {
    const { post, stored } = setup();
    const first = await post("/plain", "p1");
    const again = await post("/plain", "p1");
    expect(again).toEqual({ status: 200, replayed: "true", body: first.body });
    expect((await stored())[0]!.response_body).toBe(JSON.stringify(first.body));
  });

  test("a predicate decides per response: only responses that show the secret go unstored", async () => {
    const { post, stored } = setup();
    const withUrl = await post("/maybe", "m1", { url: "https://x.example/hook/abc" });
    const without = await post("/maybe", "m2", { name: "no url" });
    expect(await stored()).toEqual([
      { key: "m1", response_body: null },
      { key: "m2", response_body: JSON.stringify(without.body) },
    ]);
    expect((await post("/maybe", "m1", { url: "https://x.example/hook/abc" })).status).toBe(409);
    expect(await post("/maybe", "m2", { name: "no url" })).toEqual({
      status: 200,
      replayed: "true",
      body: without.body,
    });
    expect(withUrl.body.url).toBe("https://x.example/hook/abc");
  });
});
