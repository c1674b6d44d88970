// Personal API keys: create (value returned once), verify with an in-memory cache, revoke at once.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import type { Actor } from "../../actor.ts";
import { hashSecret } from "../../crypto.ts";
import { checkKey, generateKey, keyHint } from "./format.ts";
import type { KeysRepo } from "./repo.ts";
import type { ApiKeyRow } from "../../db/schema/index.ts";
import type { KeyPublic } from "./schema.ts";

const TOUCH_INTERVAL_MS = 60_000;

interface CachedKey {
  keyId: string;
  userId: string;
  name: string;
  lastTouch: number;
}

export function toPublicKey(row: ApiKeyRow): KeyPublic {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
  };
}

export function createKeysService(deps: { repo: KeysRepo; db: Transactor; changes: ChangeWatch; clock: Clock }) {
  const { repo, clock } = deps;
  const cache = new Map<string, CachedKey>();
  let cacheGeneration = deps.changes.generation();
  // Moves on every revocation here: a lookup that read its row before a revocation committed must
  // not cache it afterwards (the revoke's eviction would already have run, leaving it usable).
  let revocations = 0;
  const evict = (keyId: string) => {
    for (const [h, v] of cache) if (v.keyId === keyId) cache.delete(h);
  };
  // Another process revoked a key (PostgreSQL NOTIFY), or may have while we were not listening.
  deps.changes.onChange((c) => {
    if (c && c.topic !== "key") return;
    revocations++;
    if (c) evict(c.id);
    else cache.clear();
  });

  // Another connection (the CLI) may have revoked a cached key: then the cache is dropped before
  // the next lookup, so the revocation applies on the very next request.
  function invalidateIfChangedElsewhere() {
    const g = deps.changes.generation();
    if (g !== cacheGeneration) {
      cacheGeneration = g;
      cache.clear();
    }
  }

  return {
    async create(userId: string, name: string): Promise<{ key: string; row: ApiKeyRow }> {
      const key = generateKey();
      const row: ApiKeyRow = {
        id: newId("key"),
        userId,
        name: name.trim(),
        keyHash: hashSecret(key),
        hint: keyHint(key),
        createdAt: new Date(clock.now()).toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await repo.insert(row);
      return { key, row };
    },

    /** Resolves a bearer key to an actor or throws 401 with a reason that does not leak existence. */
    async authenticate(key: string): Promise<Actor> {
      invalidateIfChangedElsewhere();
      const hash = hashSecret(key);
      // Only keys that matched a stored hash are cached, so a hit needs no format check.
      let hit = cache.get(hash);
      if (!hit) {
        const check = checkKey(key);
        if (check === "malformed") throw new AppError("unauthorized", "The API key is malformed");
        if (check === "bad_checksum") throw new AppError("unauthorized", "The API key's checksum does not match");
        const seen = revocations;
        const row = await repo.byHash(hash);
        if (!row || row.revokedAt) throw new AppError("unauthorized", "The API key is unknown or revoked");
        hit = {
          keyId: row.id,
          userId: row.userId,
          name: row.name,
          lastTouch: row.lastUsedAt ? Date.parse(row.lastUsedAt) : 0,
        };
        if (seen === revocations) cache.set(hash, hit);
      }
      const now = clock.now();
      if (now - hit.lastTouch >= TOUCH_INTERVAL_MS) {
        hit.lastTouch = now;
        await repo.touch(hit.keyId, new Date(now).toISOString());
      }
      return { userId: hit.userId, auth: { type: "api_key", key_id: hit.keyId, key_name: hit.name } };
    },

    /** The owner's active keys, newest first, in their public shape (never the hash). */
    async list(actor: Actor, q: PageQuery): Promise<Page<KeyPublic>> {
      const page = await paginate(q.limit, q.cursor, (o) => repo.list(actor.userId, o));
      return mapPage(page, (rows) => rows.map(toPublicKey));
    },

    /** Rows, revoked ones too when asked (the command line's key:list). */
    async listRows(
      actor: Actor,
      opts: { limit: number; before?: string; includeRevoked?: boolean },
    ): Promise<ApiKeyRow[]> {
      return repo.list(actor.userId, opts);
    },

    async get(actor: Actor, id: string): Promise<ApiKeyRow> {
      const row = await repo.byId(actor.userId, id);
      if (!row) throw notFound("API key");
      return row;
    },

    async revoke(actor: Actor | null, id: string): Promise<ApiKeyRow> {
      const row = actor ? await repo.byId(actor.userId, id) : await repo.byIdAnyOwner(id);
      if (!row) throw notFound("API key");
      // The announcement commits with the revocation: other processes evict the key at that moment.
      await deps.db.tx(async () => {
        await repo.revoke(id, new Date(clock.now()).toISOString());
        await deps.changes.announce("key", id);
      });
      revocations++;
      evict(id);
      return (await repo.byIdAnyOwner(id))!;
    },

    /** Revokes every key of the user (joins the caller's transaction); returns how many. */
    async revokeAllOf(userId: string): Promise<number> {
      return deps.db.tx(async () => {
        const ids = await repo.revokeAllOfUser(userId, new Date(clock.now()).toISOString());
        for (const id of ids) await deps.changes.announce("key", id);
        deps.db.afterCommit(() => {
          revocations++;
          for (const id of ids) evict(id);
        });
        return ids.length;
      });
    },
  };
}
export type KeysService = ReturnType<typeof createKeysService>;
