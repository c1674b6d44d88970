// Idempotency-Key on POST: the first response is stored and replayed for 24 hours.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { Clock } from "../time.ts";
import { metaOf } from "./context.ts";
import { routerPath } from "./path.ts";
import type { IdempotencyRepo } from "./idempotency-repo.ts";
import { showsSecret } from "./secret-once.ts";

const TTL_MS = 24 * 3600 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["location", "content-type"];

interface Pending {
  userId: string;
  key: string;
}
const pending = new WeakMap<Request, Pending>();

export function idempotencyPlugin(deps: { repo: IdempotencyRepo; clock: Clock }) {
  const { repo, clock } = deps;
  let lastSweep = 0;

  return new Elysia({ name: "idempotency" })
    .onBeforeHandle({ as: "scoped" }, async ({ request, body }) => {
      if (request.method !== "POST") return;
      const key = request.headers.get("idempotency-key");
      if (key === null) return;
      if (!KEY_RE.test(key))
        throw new AppError("validation_failed", "Idempotency-Key must be 1–255 visible ASCII characters", {
          errors: [{ path: "headers.idempotency-key", message: "must be 1–255 visible ASCII characters" }],
        });
      const actor = metaOf(request).actor;
      if (!actor) return;
      const now = clock.now();
      if (now - lastSweep > 60_000) {
        await repo.sweep(new Date(now - TTL_MS).toISOString());
        lastSweep = now;
      }
      const path = routerPath(request);
      const hash = new Bun.CryptoHasher("sha256")
        .update(`${request.method} ${path}\n${JSON.stringify(body ?? null)}`)
        .digest("hex");
      const claim = {
        userId: actor.userId,
        key,
        method: request.method,
        path,
        requestHash: hash,
        createdAt: new Date(now).toISOString(),
      };
      const existing = await repo.claimOrFind(claim, new Date(now - TTL_MS).toISOString());
      if (existing) {
        if (existing.requestHash !== hash) {
          throw new AppError(
            "idempotency_mismatch",
            "This Idempotency-Key was used with a different request; use a new key",
          );
        }
        if (existing.state !== "done")
          throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still in progress");
        if (existing.responseBody === null) {
          throw new AppError(
            "conflict",
            "A request with this Idempotency-Key already succeeded; its response held a secret that is shown only once, so it cannot be replayed",
          );
        }
        const headers = new Headers(JSON.parse(existing.responseHeaders ?? "{}"));
        headers.set("idempotent-replayed", "true");
        headers.set("x-request-id", metaOf(request).id);
        return new Response(existing.responseBody, { status: existing.responseStatus ?? 200, headers });
      }
      pending.set(request, { userId: actor.userId, key });
      // A failed request is not recorded, so the client may retry it with the same key.
      (metaOf(request).onError ??= []).push(async () => {
        if (pending.delete(request)) await repo.remove(actor.userId, key);
      });
    })
    .onAfterHandle({ as: "scoped" }, async ({ request, response, set }) => {
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
      const body = showsSecret(request, response)
        ? null
        : typeof response === "string"
          ? response
          : JSON.stringify(response ?? null);
      await repo.finish(p.userId, p.key, { status, headers: JSON.stringify(headers), body });
    });
}
