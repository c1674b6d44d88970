// POST /api/webhooks/workflows/{token}: the token is the credential; answers 202 only after the commit.
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { createRateLimiter, rateLimitHeaders } from "../../http/rate-limiter.ts";
import type { Services } from "../../services.ts";
import type { Clock } from "../../time.ts";
import type { Deliveries } from "./deliveries.ts";
import type { WebhookTokensService } from "./service.ts";

const DEDUPE_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export interface IncomingDeps {
  tokens: WebhookTokensService;
  deliveries: Deliveries;
  clock: Clock;
  perMinute: number;
  maxBytes: number;
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new AppError("payload_too_large", `The body is larger than the limit of ${maxBytes} bytes`);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  // With a declared length (checked above) the whole body is read at once; otherwise it is streamed and counted.
  if (Number.isFinite(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge();
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("malformed_json", "The body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("validation_failed", "The body must be a JSON object; its fields become the workflow's variables", {
      errors: [{ path: "body", message: "must be a JSON object" }],
    });
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
  const limiter = createRateLimiter({ limit: deps.perMinute, windowMs: 60_000, now: () => deps.clock.now() });
  return new Elysia({ tags: ["Webhooks"] })
    // POST /api/webhooks/workflows/{token}
    .post(
      "/api/webhooks/workflows/:token",
      async ({ request, params, set }) => {
        const token = deps.tokens.resolve(params.token);
        if (!token) throw new AppError("not_found", "No webhook at this URL (the token is unknown or was regenerated)");
        const decision = limiter.hit(token.id);
        const limits = rateLimitHeaders(decision, limiter.windowSeconds, "webhook");
        Object.assign(set.headers, limits);
        if (!decision.allowed) {
          throw new AppError("rate_limited", `This webhook accepts ${decision.limit} requests a minute; retry in ${decision.resetSeconds} s`, {
            headers: { ...limits, "retry-after": String(decision.resetSeconds) },
          });
        }
        const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
        if (type !== "application/json" && !type.endsWith("+json")) {
          throw new AppError("unsupported_media_type", `Send the body as application/json, not ${type || "an unlabelled body"}`);
        }
        const dedupeKey = dedupeKeyOf(request.headers);
        const body = parseObject(await readCapped(request, deps.maxBytes));
        const accepted = await deps.deliveries.accept(token, body, dedupeKey);
        set.status = 202;
        if (accepted.replayed) set.headers["idempotent-replayed"] = "true";
        return { delivery_id: accepted.delivery_id, runs: accepted.runs };
      },
      {
        parse: "none",
        params: t.Object({ token: t.String({ description: "The secret part of the webhook URL" }) }),
        response: { 202: t.Object({ delivery_id: t.String(), runs: t.Array(t.String(), { description: "One run per active workflow" }) }) },
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
                schema: { type: "object", additionalProperties: true, description: "Any JSON object; its top-level fields become variables" },
              },
            },
          },
        },
      },
    );
}

/** The public endpoint, mounted at the top level (no API key). */
export function webhookIngressRoutes(s: Services) {
  return incomingWebhookRoutes({
    tokens: s.webhookTokens,
    deliveries: s.webhooks.deliveries,
    clock: s.clock,
    perMinute: s.config.rateLimit.webhookPerMinute,
    maxBytes: s.config.workflows.webhookMaxBytes,
  });
}
