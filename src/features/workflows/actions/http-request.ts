// The http_request action: one outgoing request through safeFetch, retried by the queue, optionally signed.
import { t } from "elysia";
import { Int, oneOf } from "../../../http/schema.ts";
import { actionSchema } from "./base.ts";
import { encodeBody, fetchFailure, signatureHeaders, statusFailure, storedResponse } from "./http-send.ts";
import { StepFailure, type ActionModule, type StepEnv } from "./types.ts";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
// Credentials a user templated into a request are sent, but not kept in the run history.
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key"]);
const FORBIDDEN_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;

export const httpRequest: ActionModule = {
  type: "http_request",
  title: "HTTP request",
  idBase: "request",
  fields: [
    { key: "method", label: "Method", kind: "select", options: HTTP_METHODS, initial: "POST", half: true },
    {
      key: "body_type",
      label: "Body type",
      kind: "select",
      options: ["json", "form"],
      omitDefault: "json",
      hint: "json (default) or form fields.",
      half: true,
    },
    {
      key: "url",
      label: "URL",
      kind: "text",
      required: true,
      placeholder: "https://example.com/hooks/{{ channel | urlencode }}",
    },
    {
      key: "headers",
      label: "Headers",
      kind: "headers",
      hint: "One per line, as Name: value. Authorization values are sent but not kept in the run history.",
    },
    {
      key: "body",
      label: "Body (JSON)",
      kind: "json",
      hint: "A JSON value; strings may hold templates. Leave empty for no body (GET and DELETE have none).",
    },
    { key: "timeout_ms", label: "Timeout (ms)", kind: "int", hint: "Default 10000, at most 120000.", half: true },
    {
      key: "retries",
      label: "Retries",
      kind: "int",
      hint: "Default 3, at most 10. Network errors, 408, 429 and 5xx are retried.",
      half: true,
    },
    { key: "store_response", label: "Keep the response (status, headers, body) for later steps", kind: "bool" },
    { key: "sign", label: "Sign the request with this workflow's secret (Standard Webhooks)", kind: "bool" },
  ],
  outputs: [
    "status",
    "response",
    "response.status",
    "response.headers",
    "response.headers.*",
    "response.body",
    "response.body.*",
    "response.truncated",
  ],
  summary: (a) => `${typeof a.method === "string" ? a.method : "POST"} ${typeof a.url === "string" ? a.url : ""}`,
  available: true,
  mode: "external",
  schema: actionSchema(
    "http_request",
    {
      method: t.Optional(oneOf(HTTP_METHODS, { description: "Default POST" })),
      url: t.String({ minLength: 1, maxLength: 8192 }),
      headers: t.Optional(t.Record(t.String({ minLength: 1, maxLength: 200 }), t.String({ maxLength: 8192 }))),
      body: t.Optional(
        t.Unknown({ description: "JSON value (templates allowed in strings), or an object of form fields" }),
      ),
      body_type: t.Optional(oneOf(["json", "form"], { description: "Default json" })),
      timeout_ms: t.Optional(Int({ minimum: 100, maximum: 120_000, description: `Default ${DEFAULT_TIMEOUT_MS}` })),
      retries: t.Optional(Int({ minimum: 0, maximum: 10, description: `Default ${DEFAULT_RETRIES}` })),
      store_response: t.Optional(t.Boolean({ description: "Keep status, headers and body in steps.<id>.response" })),
      sign: t.Optional(t.Boolean({ description: "Sign with the workflow's whsec_ secret (Standard Webhooks)" })),
    },
    "Send an HTTP request. Output: {status, response?}",
  ),
  validate(action) {
    const errors = [];
    const method = (action.method as string | undefined) ?? "POST";
    if ((method === "GET" || method === "DELETE") && action.body !== undefined) {
      errors.push({ path: "body", message: `a ${method} request carries no body` });
    }
    for (const name of Object.keys((action.headers as Record<string, string> | undefined) ?? {})) {
      if (FORBIDDEN_HEADERS.has(name.toLowerCase()))
        errors.push({ path: `headers.${name}`, message: "is set by the client itself" });
      else if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
        errors.push({ path: `headers.${name}`, message: "is not a valid header name" });
    }
    return errors;
  },
  maxTries: (action) => ((action.retries as number | undefined) ?? DEFAULT_RETRIES) + 1,
  run: send,
  redact(input) {
    const headers = input.headers as Record<string, unknown> | undefined;
    if (!headers) return input;
    const shown = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? "[redacted]" : v]),
    );
    return { ...input, headers: shown };
  },
};

async function send(input: Record<string, unknown>, env: StepEnv) {
  const method = (input.method as string | undefined) ?? "POST";
  const headers = new Headers();
  try {
    for (const [k, v] of Object.entries((input.headers as Record<string, unknown>) ?? {}))
      headers.set(k, typeof v === "string" ? v : JSON.stringify(v));
  } catch (err) {
    throw new StepFailure("invalid_header", err instanceof Error ? err.message : String(err));
  }
  let body: string | undefined;
  if (input.body !== undefined) {
    const encoded = encodeBody(input.body, (input.body_type as "json" | "form" | undefined) ?? "json");
    body = encoded.text;
    if (!headers.has("content-type")) headers.set("content-type", encoded.contentType);
  }
  // Stable across the retries of this step (and across a crash), so the receiver can drop repeats.
  const key = `${env.run.id}:${env.action.id}`;
  if (!headers.has("idempotency-key")) headers.set("idempotency-key", key);
  if (input.sign === true) {
    const ts = Math.floor(env.deps.now() / 1000);
    for (const [k, v] of Object.entries(signatureHeaders(env.signingSecret, key, ts, body ?? ""))) headers.set(k, v);
  }
  const url = typeof input.url === "string" ? input.url : String(input.url ?? "");
  let res: Awaited<ReturnType<typeof env.deps.safeFetch>>;
  try {
    res = await env.deps.safeFetch(url, {
      method,
      headers: Object.fromEntries(headers),
      body,
      timeoutMs: (input.timeout_ms as number | undefined) ?? DEFAULT_TIMEOUT_MS,
      signal: env.signal,
    });
  } catch (err) {
    throw fetchFailure(err);
  }
  if (res.status >= 400) throw statusFailure(res, env.deps.now());
  return {
    output: { status: res.status, ...(input.store_response === true ? { response: storedResponse(res) } : {}) },
  };
}
