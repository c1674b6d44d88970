// POST /api/webhooks/workflows/{token}: the token is the credential; answers 202 only after the commit.
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { readJson, type JsonLimits } from "../../http/body.ts";
import { checkRate, type RateLimiter } from "../../http/rate-limiter.ts";
import type { Clock } from "../../time.ts";
import type { Deliveries } from "./deliveries.ts";
import type { WebhookTokensService } from "./service.ts";
import { isJsonType, mediaType } from "../../media-type.ts";

const DEDUPE_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export interface IncomingDeps {
  tokens: WebhookTokensService;
  deliveries: Deliveries;
  clock: Clock;
  /** Per webhook token; shared by every process on PostgreSQL. */
  limiter: RateLimiter;
  maxBytes: number;
  maxDepth: number;
}

/** The body as a JSON object: within the size and depth limits, or a 413, 400 or 422. */
async function readObject(request: Request, limits: JsonLimits): Promise<Record<string, unknown>> {
  const value = await readJson(request, limits);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(
      "validation_failed",
      "The body must be a JSON object; its fields become the workflow's variables",
      {
        errors: [{ path: "body", message: "must be a JSON object" }],
      },
    );
  }
  return value as Record<string, unknown>;
}

function dedupeKeyOf(headers: Headers): string | null {
  const key = headers.get("webhook-id") ?? headers.get("idempotency-key");
  if (key === null) return null;
  if (!DEDUPE_KEY_RE.test(key)) {
    throw new AppError("validation_failed", "webhook-id / Idempotency-Key must be 1–255 visible ASCII characters", {
      errors: [{ path: "headers.webhook-id", message: "must be 1–255 visible ASCII characters" }],
    });
  }
  return key;
}

export function incomingWebhookRoutes(deps: IncomingDeps) {
  const { limiter } = deps;
  return (
    new Elysia({ tags: ["Webhooks"] })
      // POST /api/webhooks/workflows/{token}
      .post(
        "/api/webhooks/workflows/:token",
        async ({ request, params, set }) => {
          const token = await deps.tokens.resolve(params.token);
          if (!token)
            throw new AppError("not_found", "No webhook at this URL (the token is unknown or was regenerated)");
          const rate = await checkRate(limiter, token.id, "webhook");
          if (!rate.allowed) {
            const d = rate.decision;
            throw new AppError(
              "rate_limited",
              `This webhook accepts ${d.limit} requests a minute; retry in ${d.resetSeconds} s`,
              { headers: rate.headers },
            );
          }
          Object.assign(set.headers, rate.headers);
          const type = mediaType(request.headers.get("content-type"));
          if (!isJsonType(type)) {
            throw new AppError(
              "unsupported_media_type",
              `Send the body as application/json, not ${type || "an unlabelled body"}`,
            );
          }
          const dedupeKey = dedupeKeyOf(request.headers);
          const body = await readObject(request, { maxBytes: deps.maxBytes, maxDepth: deps.maxDepth });
          const accepted = await deps.deliveries.accept(token, body, dedupeKey);
          set.status = 202;
          if (accepted.replayed) set.headers["idempotent-replayed"] = "true";
          return { delivery_id: accepted.delivery_id, runs: accepted.runs };
        },
        {
          parse: "none",
          params: t.Object({ token: t.String({ description: "The secret part of the webhook URL" }) }),
          response: {
            202: t.Object({
              delivery_id: t.String(),
              runs: t.Array(t.String(), { description: "One run per active workflow" }),
            }),
          },
          detail: {
            operationId: "deliverWebhook",
            summary: "Trigger the workflows of a webhook token",
            description:
              "No API key: the token in the URL is the credential. The body must be a JSON object; each top-level field becomes a " +
              "variable. 202 comes only after the delivery and its runs are committed. A repeated `webhook-id` or `Idempotency-Key` " +
              "within 24 h returns the first 202 and starts nothing.",
            security: [],
            // The body is read by hand (parse: "none", size-capped), so the generator cannot see it.
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    additionalProperties: true,
                    description: "Any JSON object; its top-level fields become variables",
                  },
                },
              },
            },
          },
        },
      )
  );
}
