// The served OpenAPI document is the contract: every operation in it (paths × methods, read from
// the document so a new route cannot be skipped) is called for real, with a success and an error
// example, and each response must be declared — status, media type, headers — and its body must
// validate against the declared schema. Every /api/v1 operation is also called without a key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call } from "./helpers.ts";
import { examples, type Case } from "./contract/examples.ts";
import { buildFixtures, type Fixtures } from "./contract/fixtures.ts";
import { createValidator, responseProblems } from "./contract/validate.ts";

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

let f: Fixtures;
let doc: Json;
let validator: ReturnType<typeof createValidator>;

beforeAll(async () => {
  f = await buildFixtures();
  doc = (await call(f.ctx, "GET", "/api/openapi.json")).body;
  validator = createValidator(doc);
}, 90_000);

afterAll(async () => {
  await f?.close();
});

function operations(): { method: string; path: string; op: Json }[] {
  const out: { method: string; path: string; op: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

const templateRe = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);

async function send(method: string, c: Case) {
  const key = c.as === "none" ? undefined : c.as === "other" ? f.b.key : f.a.key;
  const headers: Record<string, string> = { ...c.headers };
  if (c.rawBody !== undefined) headers["content-length"] = String(Buffer.byteLength(c.rawBody));
  const res = await f.ctx.app.handle(
    new Request(`http://localhost${c.path}`, {
      method: method.toUpperCase(),
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(c.body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: c.rawBody ?? (c.body !== undefined ? JSON.stringify(c.body) : undefined),
    }),
  );
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    // A stream stays open until the client leaves: read its first lines, then leave.
    const reader = res.body!.getReader();
    const first = await reader.read();
    await reader.cancel();
    const text = first.value ? new TextDecoder().decode(first.value) : "";
    return { status: res.status, headers: res.headers, bytes: text.length, text };
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes: bytes.byteLength, text: new TextDecoder().decode(bytes) };
}

describe("the OpenAPI document", () => {
  test("every operation has an operationId, a summary, a description and a defined tag", () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((t: Json) => t.name));
    for (const { op } of operations()) {
      expect(op.summary?.length).toBeGreaterThan(0);
      expect(op.description?.length).toBeGreaterThan(0);
      for (const t of op.tags) expect(tags.has(t)).toBe(true);
    }
  });

  test("request bodies are JSON only (the import upload is multipart), and integer fields are plain integers", () => {
    for (const { op } of operations()) {
      if (op.requestBody)
        expect(Object.keys(op.requestBody.content)).toEqual([
          op.operationId === "createImport" ? "multipart/form-data" : "application/json",
        ]);
    }
    expect(JSON.stringify(doc)).not.toContain('"format":"integer"');
    const limit = doc.paths["/api/v1/notes"].get.parameters.find((p: Json) => p.name === "limit");
    expect(limit.schema.type).toBe("integer");
    expect(limit.schema.anyOf).toBeUndefined();
  });

  test("every /api route of the app is in the document", () => {
    const documented = new Set(operations().map((o) => `${o.method.toUpperCase()} ${o.path}`));
    const routes = f.ctx.app
      .routes()
      .filter(
        (r) =>
          /^\/api\/(v1|webhooks)\//.test(r.path) && METHODS.includes(r.method.toLowerCase()) && r.method !== "HEAD",
      )
      .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, "{$1}").replace(/\/+$/, "")}`);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });

  test("every operation has examples, and only documented ones do", () => {
    const ex = examples(f);
    const ids = operations().map((o) => o.op.operationId as string);
    expect(ids.filter((id) => !ex[id])).toEqual([]);
    expect(Object.keys(ex).filter((id) => !ids.includes(id))).toEqual([]);
  });
});

describe("every operation answers as documented", () => {
  test("success and error examples", async () => {
    const ex = examples(f);
    const failures: string[] = [];
    for (const { method, path, op } of operations()) {
      const cases = ex[op.operationId] ?? [];
      const label = (c: Case) => `${op.operationId} (${method.toUpperCase()} ${c.path}) "${c.name}"`;
      // Calls without a key come first: they must change nothing.
      const all = path.startsWith("/api/v1/")
        ? [{ ...cases[0]!, name: "no key", as: "none" as const, status: 401 }, ...cases]
        : cases;
      if (!all.some((c) => c.status < 300)) failures.push(`${op.operationId}: no success example`);
      if (!all.some((c) => c.status >= 400)) failures.push(`${op.operationId}: no error example`);
      for (const c of all) {
        if (!templateRe(path).test(c.path.split("?")[0]!)) {
          failures.push(`${label(c)}: the path does not match ${path}`);
          continue;
        }
        if (c.status < 300 && c.body !== undefined && op.requestBody?.content["application/json"]) {
          for (const p of validator.check(op.requestBody.content["application/json"].schema, c.body))
            failures.push(`${label(c)}: request ${p}`);
        }
        const res = await send(method, c);
        if (res.status !== c.status)
          failures.push(`${label(c)}: expected ${c.status}, got ${res.status} ${res.text.slice(0, 300)}`);
        for (const p of responseProblems(validator, op, res)) failures.push(`${label(c)} → ${res.status}: ${p}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe("a field's null is accepted only where the document allows it", () => {
  // Checked against the served schema, so a schema that documents one thing and validates another
  // (an enum rendered without null while the server took null) cannot pass.
  test("every PATCH body field: null is 422 naming the field unless the declared schema takes null", async () => {
    const ex = examples(f);
    const failures: string[] = [];
    let refused = 0;
    for (const { method, path, op } of operations()) {
      if (method !== "patch") continue;
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      const ok = (ex[op.operationId] ?? []).find((c) => c.status < 300);
      if (!schema?.properties || !ok) {
        failures.push(`${op.operationId}: no body schema or success example`);
        continue;
      }
      for (const field of Object.keys(schema.properties)) {
        const body = { [field]: null };
        const declared = validator.check(schema, body).length === 0;
        const res = await send(method, { name: `${field}: null`, path: ok.path, status: 0, body });
        const problem = res.status === 422 ? (JSON.parse(res.text) as Json) : undefined;
        if (declared && res.status === 422)
          failures.push(`${op.operationId} ${path}: ${field}: null is documented, got 422`);
        if (!declared) {
          refused++;
          if (problem?.errors?.[0]?.path !== field)
            failures.push(
              `${op.operationId} ${path}: ${field}: null is not documented, got ${res.status} ${res.text.slice(0, 200)}`,
            );
          else if (!/must be/.test(problem.errors[0].message))
            failures.push(`${op.operationId}: ${field}: ${problem.errors[0].message}`);
        }
      }
    }
    expect(refused).toBeGreaterThan(5);
    expect(failures).toEqual([]);
  }, 60_000);
});
