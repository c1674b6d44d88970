// Request validation through the real app: unknown fields refused by name, non-object bodies,
// messages that say what is allowed, strict integers and times, and integers in the OpenAPI document.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../test/helpers.ts";
import { isRfc3339 } from "./schema.ts";

const ID = "01JB3S6W3W4VZ3G8Q0Q9Y5H2KX";

async function setup() {
  const ctx = createTestContext();
  const u = await userWithKey(ctx);
  return { ctx, key: u.key, userId: u.userId };
}

function expect422(r: { status: number; headers: Headers; body: any }, path: string, message: string) {
  expect(r.status).toBe(422);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.body.code).toBe("validation_failed");
  expect(r.body.errors[0]).toEqual({ path, message });
}

describe("unknown fields", () => {
  test("are refused with 422 naming the field and the allowed ones", async () => {
    const { ctx, key } = await setup();
    const note = await call(ctx, "POST", "/api/v1/notes", { key, body: { content: "x", notebook_ids: [`nb_${ID}`] } });
    expect422(note, "notebook_ids", 'unknown field "notebook_ids"; allowed: content, title, notebook_id, source_ids');
    expect(note.body.detail).toBe('unknown field "notebook_ids"; allowed: content, title, notebook_id, source_ids');
    const source = await call(ctx, "POST", "/api/v1/sources", {
      key,
      body: { url: "https://example.com/a", labels: ["x"] },
    });
    expect422(
      source,
      "labels",
      'unknown field "labels"; allowed: url, title, notebook_ids, tags, generate_quick_podcast, podcast_format, html',
    );
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/v1/keys", { name: "k", scope: "all" }, "scope"],
      ["POST", "/api/v1/notebooks", { name: "n", color: "red" }, "color"],
      ["POST", "/api/v1/search", { query: "q", sort: "new" }, "sort"],
      ["POST", "/api/v1/search/ask", { question: "q", model: "x" }, "model"],
      ["POST", "/api/v1/podcasts", { source_ids: [`src_${ID}`], voice: "x" }, "voice"],
      ["POST", "/api/v1/workflows", { name: "w", trigger: { type: "webhook" }, actions: [], enabled: true }, "enabled"],
      ["PATCH", `/api/v1/notes/note_${ID}`, { body: "x" }, "body"],
      ["PATCH", `/api/v1/workflows/wf_${ID}`, { enabled: false }, "enabled"],
      ["POST", "/api/v1/webhook-tokens", { name: "mine" }, "name"],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await call(ctx, method, path, { key, body });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toBe(field);
      expect(r.body.errors[0].message).toStartWith(`unknown field "${field}"`);
    }
    // Nothing was created by the refused requests.
    expect((await call(ctx, "GET", "/api/v1/notes", { key })).body.data).toEqual([]);
    expect((await call(ctx, "GET", "/api/v1/sources", { key })).body.data).toEqual([]);
  });

  test("nested objects of workflows are closed too: triggers, actions and conditions", async () => {
    const { ctx, key } = await setup();
    const wf = (trigger: unknown, actions: unknown[]) =>
      call(ctx, "POST", "/api/v1/workflows", { key, body: { name: "w", trigger, actions } });
    const trig = await wf({ type: "webhook", secret: "x" }, []);
    expect422(trig, "trigger.secret", 'unknown field "secret"; allowed: type, token_id, fields');
    const action = await wf({ type: "webhook" }, [
      { id: "a", type: "http_request", url: "https://example.com", verb: "GET" },
    ]);
    expect(action.body.errors[0].path).toBe("actions[0].verb");
    const clause = await wf({ type: "webhook" }, [
      { id: "c", type: "condition", if: { all: [{ left: "1", op: "eq", right: "1", not: true }] } },
    ]);
    expect(clause.body.errors[0]).toEqual({
      path: "actions[0].if.all[0].not",
      message: 'unknown field "not"; allowed: left, op, right',
    });
  });
});

describe("bodies that are not objects", () => {
  test("PATCH with an array, string, number, boolean or null is a 422, not an empty patch", async () => {
    const { ctx, key } = await setup();
    const nb = await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "Kept" } });
    const note = await call(ctx, "POST", "/api/v1/notes", { key, body: { content: "Kept" } });
    const targets = [
      `/api/v1/notebooks/${nb.body.id}`,
      `/api/v1/notes/${note.body.id}`,
      `/api/v1/sources/src_${ID}`,
      `/api/v1/workflows/wf_${ID}`,
    ];
    for (const path of targets) {
      for (const body of [["name", "x"], "name", 42, true, null]) {
        const r = await call(ctx, "PATCH", path, { key, body });
        expect422(r, "body", "must be a JSON object");
      }
    }
    expect((await call(ctx, "GET", `/api/v1/notebooks/${nb.body.id}`, { key })).body.name).toBe("Kept");
  });
});

describe("messages say what is allowed", () => {
  test("enums list their values", async () => {
    const { ctx, key } = await setup();
    expect422(
      await call(ctx, "GET", "/api/v1/sources?status=READY", { key }),
      "query.status",
      "must be one of: pending, ready, failed",
    );
    const status = await call(ctx, "GET", "/api/v1/sources?status=READY", { key });
    expect(status.body.detail).toBe("query.status: must be one of: pending, ready, failed");
    expect422(
      await call(ctx, "POST", "/api/v1/podcasts", { key, body: { format: "nope" } }),
      "format",
      "must be one of: solo_expert, deep_dive, brief, critique, debate, unabridged",
    );
    expect422(
      await call(ctx, "POST", "/api/v1/search", { key, body: { query: "q", mode: "fuzzy" } }),
      "mode",
      "must be one of: text, vector, hybrid",
    );
    expect422(
      await call(ctx, "GET", "/api/v1/podcasts?status=done", { key }),
      "query.status",
      "must be one of: queued, generating, ready, failed",
    );
    expect422(
      await call(ctx, "GET", `/api/v1/sources/src_${ID}?include=all`, { key }),
      "query.include",
      'must be "content"',
    );
    expect422(
      await call(ctx, "POST", `/api/v1/runs/run_${ID}/replay?from=middle`, { key }),
      "query.from",
      "must be one of: start, failed",
    );
    expect422(
      await call(ctx, "PATCH", `/api/v1/sources/src_${ID}`, { key, body: { podcast_format: "long" } }),
      "podcast_format",
      "must be one of: solo_expert, deep_dive, brief, critique, debate, unabridged",
    );
    const action = await call(ctx, "POST", "/api/v1/workflows", {
      key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [{ id: "a", type: "http_request", url: "https://example.com", method: "FETCH" }],
      },
    });
    expect422(action, "actions[0].method", "must be one of: GET, POST, PUT, PATCH, DELETE");
  });

  test("numbers name the parameter and its range", async () => {
    const { ctx, key } = await setup();
    for (const limit of ["abc", "0", "101", "-1", ""]) {
      const r = await call(ctx, "GET", `/api/v1/sources?limit=${limit}`, { key });
      expect422(r, "query.limit", "must be an integer from 1 to 100");
      expect(r.body.detail).toBe("query.limit: must be an integer from 1 to 100");
    }
    expect422(
      await call(ctx, "POST", "/api/v1/search", { key, body: { query: "q", limit: 500 } }),
      "limit",
      "must be an integer from 1 to 50",
    );
    const timeout = await call(ctx, "POST", "/api/v1/workflows", {
      key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [{ id: "a", type: "http_request", url: "https://example.com", retries: 11 }],
      },
    });
    expect422(timeout, "actions[0].retries", "must be an integer from 0 to 10");
  });

  test("strings, ids and required fields", async () => {
    const { ctx, key } = await setup();
    expect422(await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "" } }), "name", "must not be empty");
    expect422(
      await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "x".repeat(201) } }),
      "name",
      "must be at most 200 characters long",
    );
    expect422(await call(ctx, "POST", "/api/v1/notes", { key, body: {} }), "content", "is required (a string)");
    expect422(
      await call(ctx, "POST", "/api/v1/notes", { key, body: { content: "x", source_ids: ["src_1"] } }),
      "source_ids[0]",
      "must be an id like src_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX",
    );
    expect422(
      await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "n", description: 5 } }),
      "description",
      "must be a string or null",
    );
  });
});

describe("strict parsing", () => {
  test("query integers take one decimal spelling: no exponent, hex, sign, fraction or leading zero", async () => {
    const { ctx, key } = await setup();
    for (const limit of ["1e1", "0x10", "+1", "1.0", "00", "007", " 5", "5 ", "1_0", "9007199254740993"]) {
      const r = await call(ctx, "GET", `/api/v1/notes?limit=${encodeURIComponent(limit)}`, { key });
      expect422(r, "query.limit", "must be an integer from 1 to 100");
    }
    for (const limit of ["1", "10", "100"])
      expect((await call(ctx, "GET", `/api/v1/notes?limit=${limit}`, { key })).status).toBe(200);
  });

  test("a JSON integer must be a number: a numeric string or a fraction is refused", async () => {
    const { ctx, key } = await setup();
    expect422(
      await call(ctx, "POST", "/api/v1/search", { key, body: { query: "q", limit: "5" } }),
      "limit",
      "must be an integer from 1 to 50",
    );
    expect422(
      await call(ctx, "POST", "/api/v1/search", { key, body: { query: "q", limit: 5.5 } }),
      "limit",
      "must be an integer from 1 to 50",
    );
    expect((await call(ctx, "POST", "/api/v1/search", { key, body: { query: "q", limit: 5 } })).status).toBe(200);
  });

  test("times are RFC 3339 with a real calendar date", async () => {
    const { ctx, key } = await setup();
    for (const t of [
      "2020-02-30T00:00:00Z",
      "2021-02-29T00:00:00Z",
      "2020-13-01T00:00:00Z",
      "2020-01-01T24:00:00Z",
      "2020-01-01T00:00:00",
      "2020-01-01",
      "yesterday",
    ]) {
      const r = await call(ctx, "GET", `/api/v1/sources?created_after=${encodeURIComponent(t)}`, { key });
      expect422(r, "query.created_after", "must be an RFC 3339 time with a real date, e.g. 2026-01-31T12:00:00Z");
    }
    for (const t of ["2020-02-29T00:00:00Z", "2026-01-31T12:00:00.123+05:30", "2026-01-31t12:00:00z"]) {
      expect((await call(ctx, "GET", `/api/v1/sources?created_after=${encodeURIComponent(t)}`, { key })).status).toBe(
        200,
      );
    }
    expect(isRfc3339("2026-01-31T12:00:00+24:00")).toBe(false);
  });
});

describe("the OpenAPI document", () => {
  test("integers are plain integers: no numeric-string unions anywhere", async () => {
    const ctx = createTestContext();
    const doc = (await call(ctx, "GET", "/api/openapi.json")).body;
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"format":"integer"');
    expect(text).not.toContain('"format":"numeric"');
    const params = doc.paths["/api/v1/sources"].get.parameters as { name: string; schema: unknown }[];
    expect(params.find((p) => p.name === "limit")!.schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 20,
      description: "Page size, 1–100 (default 20)",
    });
    expect(params.find((p) => p.name === "created_after")!.schema).toMatchObject({
      type: "string",
      format: "date-time",
    });
    const search = doc.paths["/api/v1/search"].post.requestBody.content["application/json"].schema;
    expect(search.properties.limit).toEqual({ type: "integer", minimum: 1, maximum: 50, default: 10 });
    expect(search.additionalProperties).toBe(false);
    const account = JSON.stringify(doc.paths["/api/v1/account"].get.responses["200"]);
    expect(account).toContain('"allowance":{"type":"integer"}');
  });
});
