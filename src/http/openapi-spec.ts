// Completes the generated OpenAPI document with what every route shares: the problem+json error
// responses (401, 404, 422, 429, 5xx), RateLimit headers, and paths without trailing slashes.
import { ERROR_CODES } from "../errors.ts";

type Json = Record<string, any>;

const problem = { $ref: "#/components/schemas/Problem" };
const problemContent = { "application/problem+json": { schema: problem } };

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
    errors: {
      type: "array",
      description: "Validation errors",
      items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
    },
  },
};

const rateHeaders = {
  "RateLimit-Policy": { schema: { type: "string" }, description: 'e.g. "default";q=600;w=60' },
  RateLimit: { schema: { type: "string" }, description: 'e.g. "default";r=599;t=42' },
};

export function augmentSpec(spec: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(spec.paths ?? {})) {
    const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
    paths[clean] = { ...(paths[clean] ?? {}), ...item };
    for (const op of Object.values<Json>(paths[clean])) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const r = op.responses;
      if (clean.startsWith("/api/v1/")) {
        for (const ok of Object.keys(r)) if (/^2/.test(ok)) r[ok].headers = { ...rateHeaders, ...(r[ok].headers ?? {}) };
        r["401"] ??= { description: "Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer)", content: problemContent };
        r["429"] ??= { description: "Rate limited; see Retry-After", headers: { "Retry-After": { schema: { type: "integer" } } }, content: problemContent };
      } else if (clean.startsWith("/api/webhooks/")) {
        op.security = [];
        r["429"] ??= { description: "Rate limited for this token; see Retry-After", content: problemContent };
      }
      if (clean.includes("{")) r["404"] ??= { description: "Not found, or owned by someone else", content: problemContent };
      r["422"] ??= { description: "Validation failed; errors[] names each field", content: problemContent };
      r["4XX"] ??= { description: "Other client errors (400 malformed JSON, 402, 409, 413, 415)", content: problemContent };
      r["5XX"] ??= { description: "Server or upstream error; no internals are exposed", content: problemContent };
    }
  }
  return {
    ...spec,
    paths,
    components: { ...(spec.components ?? {}), schemas: { ...(spec.components?.schemas ?? {}), Problem: PROBLEM_SCHEMA } },
  };
}
