// /api/v1/webhook-tokens: create (URL shown once), list, regenerate, delete.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, ListQuery, withLink } from "../../http/pagination.ts";
import { secretOnce } from "../../http/secret-once.ts";
import { TokenPublic, TokenWithUrl } from "./schema.ts";
import type { WebhookTokensService } from "./service.ts";

const Params = t.Object({ id: t.String({ description: "A webhook token id (whk_…)" }) });

export function webhookTokenRoutes(tokens: WebhookTokensService) {
  return (
    new Elysia({ prefix: "/webhook-tokens", tags: ["Webhook tokens"] })
      .use(secretOnce)
      // GET /api/v1/webhook-tokens
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await tokens.list(actorOf(ctx.request), { limit, cursor }), limit, ctx);
        },
        {
          query: ListQuery,
          response: listOf(TokenPublic),
          detail: {
            operationId: "listWebhookTokens",
            summary: "List webhook tokens (never their URLs)",
            description: "Each token with its hint and the workflows that use it.",
          },
        },
      )
      // POST /api/v1/webhook-tokens
      .post(
        "/",
        async ({ request, set }) => {
          const token = await tokens.create(actorOf(request));
          set.status = 201;
          set.headers["location"] = `/api/v1/webhook-tokens/${token.id}`;
          return token;
        },
        {
          response: { 201: TokenWithUrl },
          secretOnce: true,
          detail: {
            operationId: "createWebhookToken",
            summary: "Create a webhook token; its URL is in this response only",
            description:
              "The URL is the credential: only a hash of it is stored, so it cannot be shown again (regenerate to get a new one).",
          },
        },
      )
      // GET /api/v1/webhook-tokens/{id}
      .get("/:id", ({ request, params }) => tokens.get(actorOf(request), params.id), {
        params: Params,
        response: TokenPublic,
        detail: {
          operationId: "getWebhookToken",
          summary: "Get a webhook token",
          description: "One token with its hint and the workflows that use it; never its URL.",
        },
      })
      // POST /api/v1/webhook-tokens/{id}/regenerate
      .post("/:id/regenerate", ({ request, params }) => tokens.regenerate(actorOf(request), params.id), {
        params: Params,
        response: TokenWithUrl,
        secretOnce: true,
        detail: {
          operationId: "regenerateWebhookToken",
          summary: "Replace the token: the new URL is in this response only, the old one stops at once",
          description: "Workflows using the token keep working with the new URL; deliveries to the old URL get 404.",
        },
      })
      // DELETE /api/v1/webhook-tokens/{id}
      .delete("/:id", ({ request, params }) => tokens.delete(actorOf(request), params.id), {
        params: Params,
        response: TokenPublic,
        detail: {
          operationId: "deleteWebhookToken",
          summary: "Delete a webhook token (409 while a workflow uses it)",
          description: "Returns the token as it was before deletion.",
        },
      })
  );
}
