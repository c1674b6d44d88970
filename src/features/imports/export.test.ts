// Export: the JSON document (versioned, no secrets) and bookmark HTML; a JSON export imported into a
// fresh account gives the same library.
import { expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { fixture, runImports, upload } from "./test-support.ts";

async function library(ctx: any, key: string) {
  const sources = (await call(ctx, "GET", "/api/v1/sources?limit=100", { key })).body.data;
  const notebooks = (await call(ctx, "GET", "/api/v1/notebooks?limit=100", { key })).body.data;
  const notes = (await call(ctx, "GET", "/api/v1/notes?limit=100", { key })).body.data;
  const nbName = new Map(notebooks.map((n: any) => [n.id, n.name]));
  const srcUrl = new Map(sources.map((s: any) => [s.id, s.url]));
  return {
    sources: sources
      .map((s: any) => ({
        url: s.url,
        title: s.title,
        saved_at: s.saved_at,
        tags: s.tags,
        archived: s.archived,
        notebooks: s.notebook_ids.map((id: string) => nbName.get(id)).sort(),
      }))
      .sort((a: any, b: any) => a.url.localeCompare(b.url)),
    notebooks: notebooks.map((n: any) => [n.name, n.description]).sort(),
    notes: notes
      .map((n: any) => ({
        title: n.title,
        content: n.content,
        notebook: n.notebook_id ? nbName.get(n.notebook_id) : null,
        sources: n.source_ids.map((id: string) => srcUrl.get(id)).sort(),
      }))
      .sort((a: any, b: any) => a.content.localeCompare(b.content)),
  };
}

test("export JSON, import it into a fresh account: the same sources, notebooks, notes, tags and saved times", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  await upload(ctx, a.key, await fixture("chrome-bookmarks.html").bytes());
  await upload(ctx, a.key, await fixture("karakeep.json").bytes());
  await runImports(ctx);
  const nb = (
    await call(ctx, "POST", "/api/v1/notebooks", {
      key: a.key,
      body: { name: "Described", description: "With a description" },
    })
  ).body;
  const any = (await call(ctx, "GET", "/api/v1/sources?limit=1", { key: a.key })).body.data[0];
  await call(ctx, "POST", "/api/v1/notes", {
    key: a.key,
    body: { content: "# Thoughts\n\nÜber alles.", notebook_id: nb.id, source_ids: [any.id] },
  });
  await call(ctx, "POST", "/api/v1/workflows", {
    key: a.key,
    body: {
      name: "Ping",
      trigger: { type: "event", event: "source.created" },
      actions: [
        {
          id: "h",
          type: "http_request",
          method: "POST",
          url: "https://example.com/hook",
          headers: { authorization: "Bearer very-secret" },
        },
      ],
    },
  });

  const res = await call(ctx, "GET", "/api/v1/export?format=json", { key: a.key });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toMatch(
    /^attachment; filename="commonplace-export-\d{4}-\d\d-\d\d\.json"$/,
  );
  const doc = res.body;
  expect(doc).toMatchObject({ format: "commonplace-export", version: 1 });
  expect(Object.keys(doc)).toEqual([
    "format",
    "version",
    "exported_at",
    "account",
    "notebooks",
    "sources",
    "notes",
    "highlights",
    "podcasts",
    "workflows",
    "feed_watches",
  ]);
  expect(res.text).not.toContain("very-secret");
  expect(res.text).not.toContain("whsec_");
  expect(doc.workflows[0].actions[0].headers).toEqual({ authorization: "[removed]" });

  const r = await upload(ctx, b.key, res.text, { format: "auto" });
  expect(r.body.format).toBe("commonplace");
  await runImports(ctx);
  const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: b.key })).body;
  expect(imp.problems).toEqual([]);
  const before = await library(ctx, a.key);
  const after = await library(ctx, b.key);
  expect(before.sources.length).toBeGreaterThan(5);
  expect(after).toEqual(before);
});

test("Netscape export: notebooks as nested folders, ADD_DATE from saved_at, tags; it imports back the same", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  await upload(ctx, a.key, await fixture("chrome-bookmarks.html").bytes());
  await runImports(ctx);
  const res = await call(ctx, "GET", "/api/v1/export?format=netscape", { key: a.key });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.text.startsWith("<!DOCTYPE NETSCAPE-Bookmark-file-1>")).toBe(true);
  expect(res.text).toContain(`ADD_DATE="1650000000" TAGS="essays,longform">A long read</A>`);
  expect(res.text).toMatch(/<H3[^>]*>Work<\/H3>\s*<DL><p>\s*<DT><H3[^>]*>Empty folder<\/H3>/);
  await upload(ctx, b.key, res.text);
  await runImports(ctx);
  // ADD_DATE holds whole seconds.
  const pick = (list: any[]) => list.map((s: any) => [s.url, s.saved_at.slice(0, 19), s.tags.join(",")]).sort();
  const sa = (await call(ctx, "GET", "/api/v1/sources?limit=100", { key: a.key })).body.data;
  const sb = (await call(ctx, "GET", "/api/v1/sources?limit=100", { key: b.key })).body.data;
  expect(pick(sb)).toEqual(pick(sa));
  const names = async (key: string) =>
    (await call(ctx, "GET", "/api/v1/notebooks?limit=100", { key })).body.data.map((n: any) => n.name).sort();
  expect(await names(b.key)).toEqual(await names(a.key));
});
