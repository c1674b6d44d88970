// /api/v1/keys: a key-authenticated script may list, create and revoke its owner's keys.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, ListQuery, withLink } from "../../http/pagination.ts";
import { secretOnce } from "../../http/secret-once.ts";
import type { KeysService } from "./service.ts";
import { KeyCreate, KeyCreated, KeyPublic } from "./schema.ts";
import { toPublicKey } from "./service.ts";

export function keyRoutes(s: { keys: KeysService }) {
  return (
    new Elysia({ prefix: "/keys", tags: ["API keys"] })
      .use(secretOnce)
      // GET /api/v1/keys
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await s.keys.list(actorOf(ctx.request), { limit, cursor }), limit, ctx);
        },
        {
          query: ListQuery,
          response: listOf(KeyPublic),
          detail: {
            operationId: "listKeys",
            summary: "List active API keys",
            description:
              "The owner's keys that are not revoked, newest first, with a display hint and the last time each was used; never their values.",
          },
        },
      )
      // POST /api/v1/keys
      .post(
        "/",
        async ({ request, body, set }) => {
          const { key, row } = await s.keys.create(actorOf(request).userId, body.name);
          set.status = 201;
          set.headers["location"] = `/api/v1/keys/${row.id}`;
          return { ...toPublicKey(row), key };
        },
        {
          body: KeyCreate,
          response: { 201: KeyCreated },
          secretOnce: true,
          detail: {
            operationId: "createKey",
            summary: "Create an API key (its value is returned once)",
            description: "The full `cpk_…` value is in `key`, in this response only; the server stores only its hash.",
          },
        },
      )
      // DELETE /api/v1/keys/{id}
      .delete("/:id", async ({ request, params }) => toPublicKey(await s.keys.revoke(actorOf(request), params.id)), {
        params: t.Object({ id: t.String() }),
        response: KeyPublic,
        detail: {
          operationId: "revokeKey",
          summary: "Revoke an API key at once",
          description: "The key stops working on the very next request.",
        },
      })
  );
}
