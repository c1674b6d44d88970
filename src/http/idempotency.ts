// Idempotency-Key on POST: the first response is stored and replayed for 24 hours.
import type { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { Clock } from "../time.ts";
import { metaOf } from "./context.ts";

const TTL_MS = 24 * 3600 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["location", "content-type"];

interface Pending {
  userId: string;
  key: string;
}
const pending = new WeakMap<Request, Pending>();

/** Handlers whose response shows a secret once call this, so the idempotency record keeps no copy. */
export function markSecretResponse(request: Request): void {
  metaOf(request).secretResponse = true;
}

export function idempotencyPlugin(deps: { sqlite: Database; clock: Clock }) {
  const { sqlite, clock } = deps;
  const find = sqlite.prepare<
    { request_hash: string; state: string; response_status: number | null; response_headers: string | null; response_body: string | null; created_at: string },
    [string, string]
  >("SELECT request_hash, state, response_status, response_headers, response_body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?");
  const remove = sqlite.prepare<unknown, [string, string]>("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?");
  const claim = sqlite.prepare<unknown, [string, string, string, string, string, string]>(
    "INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, 'in_progress', ?)",
  );
  const finish = sqlite.prepare<unknown, [number, string, string | null, string, string]>(
    "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_headers = ?, response_body = ? WHERE user_id = ? AND key = ?",
  );
  const sweep = sqlite.prepare<unknown, [string]>("DELETE FROM idempotency_keys WHERE created_at < ?");
  let lastSweep = 0;

  return new Elysia({ name: "idempotency" })
    .onBeforeHandle({ as: "scoped" }, ({ request, body }) => {
      if (request.method !== "POST") return;
      const key = request.headers.get("idempotency-key");
      if (key === null) return;
      if (!KEY_RE.test(key)) throw new AppError("validation_failed", "Idempotency-Key must be 1–255 visible ASCII characters", { errors: [{ path: "headers.idempotency-key", message: "must be 1–255 visible ASCII characters" }] });
      const actor = metaOf(request).actor;
      if (!actor) return;
      const now = clock.now();
      if (now - lastSweep > 60_000) {
        sweep.run(new Date(now - TTL_MS).toISOString());
        lastSweep = now;
      }
      const path = new URL(request.url).pathname;
      const hash = new Bun.CryptoHasher("sha256").update(`${request.method} ${path}\n${JSON.stringify(body ?? null)}`).digest("hex");
      const existing = find.get(actor.userId, key);
      if (existing && Date.parse(existing.created_at) > now - TTL_MS) {
        if (existing.request_hash !== hash) {
          throw new AppError("idempotency_mismatch", "This Idempotency-Key was used with a different request; use a new key");
        }
        if (existing.state !== "done") throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still in progress");
        if (existing.response_body === null) {
          throw new AppError(
            "conflict",
            "A request with this Idempotency-Key already succeeded; its response held a secret that is shown only once, so it cannot be replayed",
          );
        }
        const headers = new Headers(JSON.parse(existing.response_headers ?? "{}"));
        headers.set("idempotent-replayed", "true");
        headers.set("x-request-id", metaOf(request).id);
        return new Response(existing.response_body, { status: existing.response_status ?? 200, headers });
      }
      if (existing) remove.run(actor.userId, key);
      claim.run(actor.userId, key, request.method, path, hash, new Date(now).toISOString());
      pending.set(request, { userId: actor.userId, key });
      // A failed request is not recorded, so the client may retry it with the same key.
      (metaOf(request).onError ??= []).push(() => {
        if (pending.delete(request)) remove.run(actor.userId, key);
      });
    })
    .onAfterHandle({ as: "scoped" }, ({ request, response, set }) => {
      const p = pending.get(request);
      if (!p) return;
      pending.delete(request);
      const status = typeof set.status === "number" ? set.status : 200;
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = set.headers[h];
        if (typeof v === "string") headers[h] = v;
      }
      headers["content-type"] ??= "application/json";
      // Secrets are stored only as hashes: a response that shows one is recorded without its body.
      const body = metaOf(request).secretResponse ? null : typeof response === "string" ? response : JSON.stringify(response ?? null);
      finish.run(status, JSON.stringify(headers), body, p.userId, p.key);
    });
}
