// Completes the generated OpenAPI document into the API's contract: what every route shares (the
// problem+json error responses, RateLimit headers, Idempotency-Key), servers and tags, and the
// corrections of what the generator gets wrong (see normalizeSchemas and jsonOnlyBodies).
import { ERROR_CODES } from "../errors.ts";

type Json = Record<string, any>;

const problem = { $ref: "#/components/schemas/Problem" };
const problemContent = { "application/problem+json": { schema: problem } };
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const PROBLEM_SCHEMA = {
  type: "object",
  description: "RFC 9457 problem details",
  required: ["type", "title", "status", "detail", "code", "request_id"],
  properties: {
    type: { type: "string", description: "A stable URI reference per error code, e.g. /api/problems/not_found" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string", description: "What went wrong, precisely" },
    code: { type: "string", enum: Object.keys(ERROR_CODES) },
    request_id: { type: "string", description: "Also in the X-Request-Id header" },
    instance: { type: "string" },
    errors: {
      type: "array",
      description: "Validation errors",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Replays the first response to a retry with the same key for 24 h; the same key with another body is a 422",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

const WEBHOOK_ID = {
  name: "webhook-id",
  in: "header",
  required: false,
  description:
    "Standard Webhooks message id; a repeat within 24 h returns the first 202 and starts nothing (Idempotency-Key works alike)",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

const rateHeaders = {
  "RateLimit-Policy": { schema: { type: "string" }, description: 'e.g. "default";q=600;w=60' },
  RateLimit: { schema: { type: "string" }, description: 'e.g. "default";r=599;t=42' },
};

/** info.description: the conventions every operation shares, shown first in the reference. */
export const API_DESCRIPTION = [
  "Your personal knowledge library over HTTP: JSON in and out, `snake_case` fields, `Authorization: Bearer cpk_…`.",
  "",
  '- **Lists** are `{"data": [...], "next_cursor": "…" | null}`, newest first, with `?limit=` (1–100) and `?cursor=`, and a `Link: <…>; rel="next"` header.',
  "- **Errors** are RFC 9457 `application/problem+json` with a stable `code`; validation errors list `errors: [{path, message}]`.",
  "- **Rate limits**: `RateLimit-Policy` and `RateLimit` on every key-authenticated response; 429 with `Retry-After`.",
  "- **Idempotency**: POSTs take an `Idempotency-Key`; a retry within 24 h gets the first response.",
  "- Every response carries `X-Request-Id`.",
].join("\n");

/** Shown in the reference UI's sidebar, in this order. */
export const TAGS: { name: string; description: string }[] = [
  { name: "Account", description: "Who is calling, their plan and credits" },
  { name: "API keys", description: "Personal API keys (`cpk_…`); a key acts as its owner" },
  { name: "Sources", description: "Saved links, fetched, extracted to Markdown and indexed" },
  { name: "Notebooks", description: "Groups of sources and notes; Markdown export" },
  { name: "Notes", description: "Markdown notes, optionally in a notebook and citing sources" },
  {
    name: "Highlights",
    description: "Quoted passages of sources with a colour and a note, anchored in the article text; CSV export",
  },
  { name: "Search", description: "Text, vector and hybrid search; questions answered with citations" },
  { name: "Podcasts", description: "Audio episodes generated from sources" },
  { name: "Workflows", description: "Triggers and actions, and their run history" },
  { name: "Webhook tokens", description: "Credentials of incoming webhook URLs" },
  { name: "Webhooks", description: "Incoming webhook deliveries (no API key: the token is the credential)" },
  { name: "Feeds", description: "Feed watches made by workflows' watch_feed actions" },
  { name: "Events", description: "Your own events as a Server-Sent Events stream, resumable with Last-Event-ID" },
  {
    name: "Import and export",
    description:
      "Bring a library in from a file (bookmarks, Pocket, Omnivore, Karakeep, OPML, URL lists); take the whole account out",
  },
];

const OK_DESCRIPTIONS: Record<string, string> = {
  "200": "OK",
  "201": "Created; the Location header names the new resource",
  "202": "Accepted; the work goes on in the background",
  "206": "Partial content",
};

/**
 * Elysia documents each integer field as `anyOf: [string with format "integer", integer]` (the
 * query-string coercion leaking into the document, with a default of 0 that is not a string).
 * The API takes and returns integers; keep the integer branch, with the outer keywords.
 */
function normalizeSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalizeSchemas);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = normalizeSchemas(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const coerced = anyOf.find((s: Json) => s?.type === "string" && (s.format === "integer" || s.format === "numeric"));
    const numeric = anyOf.find((s: Json) => s?.type === "integer" || s?.type === "number");
    if (coerced && numeric) {
      const { anyOf: _, ...outer } = out;
      return { ...numeric, ...outer };
    }
  }
  return out;
}

/** The JSON API refuses other media types with 415 (see request.ts); say only what it accepts. */
function jsonOnlyBodies(op: Json): void {
  const content = op.requestBody?.content;
  if (!content?.["application/json"]) return;
  op.requestBody.content = { "application/json": content["application/json"] };
}

function completeResponses(path: string, method: string, op: Json): void {
  const r: Json = (op.responses ??= {});
  for (const [status, res] of Object.entries<Json>(r)) {
    if (res.description === `Response for status ${status}` || !res.description)
      res.description = OK_DESCRIPTIONS[status] ?? "Response";
    // Every error this API sends is problem+json, whatever the route declared.
    if (/^[45]/.test(status) && !res.content) res.content = problemContent;
  }
  if (path.startsWith("/api/")) {
    for (const ok of Object.keys(r)) if (/^2/.test(ok)) r[ok].headers = { ...rateHeaders, ...(r[ok].headers ?? {}) };
  }
  if (r["201"])
    r["201"].headers = {
      Location: { schema: { type: "string" }, description: "The new resource's path" },
      ...r["201"].headers,
    };
  if (path.startsWith("/api/v1/")) {
    r["401"] ??= {
      description: "Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer)",
      content: problemContent,
    };
    r["429"] ??= {
      description: "Rate limited; see Retry-After",
      headers: { "Retry-After": { schema: { type: "integer" } } },
      content: problemContent,
    };
    if (method === "post")
      op.parameters = [...(op.parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }];
  } else if (path.startsWith("/api/webhooks/")) {
    op.security = [];
    op.parameters = [...(op.parameters ?? []), WEBHOOK_ID, { $ref: "#/components/parameters/IdempotencyKey" }];
    r["429"] ??= { description: "Rate limited for this token; see Retry-After", content: problemContent };
  }
  if (path.includes("{")) r["404"] ??= { description: "Not found, or owned by someone else", content: problemContent };
  r["422"] ??= { description: "Validation failed; errors[] names each field", content: problemContent };
  r["4XX"] ??= { description: "Other client errors (400 malformed JSON, 402, 409, 413, 415)", content: problemContent };
  r["5XX"] ??= { description: "Server or upstream error; no internals are exposed", content: problemContent };
}

export interface SpecOptions {
  /** The server's public URL (BASE_URL); the document's only server. */
  baseUrl: string;
}

export function augmentSpec(generated: Json, opts: SpecOptions): Json {
  const spec = normalizeSchemas(generated) as Json;
  const paths: Json = {};
  const used = new Set<string>();
  for (const [path, item] of Object.entries<Json>(spec.paths ?? {})) {
    const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
    paths[clean] = { ...(paths[clean] ?? {}), ...item };
    for (const [method, op] of Object.entries<Json>(paths[clean])) {
      if (!METHODS.has(method) || !op || typeof op !== "object") continue;
      for (const tag of op.tags ?? []) used.add(tag);
      jsonOnlyBodies(op);
      completeResponses(clean, method, op);
    }
  }
  const known = new Set(TAGS.map((t) => t.name));
  const tags = [
    ...TAGS.filter((t) => used.has(t.name)),
    ...[...used].filter((t) => !known.has(t)).map((name) => ({ name })),
  ];
  const server = opts.baseUrl.replace(/\/+$/, "");
  const { openapi, info, ...rest } = spec;
  return {
    openapi,
    info: { ...info, contact: { name: "The operator of this server", url: server } },
    servers: [{ url: server, description: "This server" }],
    ...rest,
    tags,
    paths,
    components: {
      ...(spec.components ?? {}),
      parameters: { ...(spec.components?.parameters ?? {}), IdempotencyKey: IDEMPOTENCY_KEY },
      schemas: { ...(spec.components?.schemas ?? {}), Problem: PROBLEM_SCHEMA },
    },
  };
}
