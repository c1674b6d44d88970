// Markdown export: unzip the response and check names, front matter and bodies; large notebooks are read page by page.
import { afterAll, describe, expect, test } from "bun:test";
import JSZip from "jszip";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { startOutsideWeb } from "../../../../test/outside-web.ts";
import { sqlRows } from "../../../db/inspect.ts";
import { newId } from "../../../ids.ts";
import { systemActor } from "../../../actor.ts";
import { EXPORT_PAGE_SIZE, exportPages, frontMatter, notebookZip, uniqueSlugger } from "./export.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

describe("slugs", () => {
  test("unique within an export", () => {
    const s = uniqueSlugger();
    expect([s("Same", "a"), s("same", "b"), s("SAME!", "c")]).toEqual(["same", "same-2", "same-3"]);
  });

  test("front matter values are safely quoted", () => {
    expect(frontMatter({ title: 'He said "hi": yes', n: 3, none: null })).toBe(
      '---\ntitle: "He said \\"hi\\": yes"\nn: 3\n---\n',
    );
  });
});

describe("GET /api/v1/notebooks/{id}/export/markdown", () => {
  test("a zip with index.md, sources/*.md and notes/*.md", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const nb = (
      await call(ctx, "POST", "/api/v1/notebooks", {
        key: u.key,
        body: { name: "Coast: field notes", description: "Tide pools and otters" },
      })
    ).body;
    const article = (
      await call(ctx, "POST", "/api/v1/sources", {
        key: u.key,
        body: { url: web.url("/article"), notebook_ids: [nb.id] },
      })
    ).body;
    await call(ctx, "POST", "/api/v1/sources", {
      key: u.key,
      body: { url: web.url("/gone"), notebook_ids: [nb.id], title: "Gone page" },
    });
    await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: web.url("/notes.txt") } }); // not in the notebook
    await call(ctx, "POST", "/api/v1/notes", {
      key: u.key,
      body: { content: "# Visit plan\n\nGo at low tide.", notebook_id: nb.id },
    });
    await call(ctx, "POST", "/api/v1/notes", {
      key: u.key,
      body: { content: "Second thought", title: "Visit plan", notebook_id: nb.id, source_ids: [article.id] },
    });
    await ctx.runner.drain();

    const res = await ctx.app.handle(
      new Request(`http://localhost/api/v1/notebooks/${nb.id}/export/markdown`, {
        headers: { authorization: `Bearer ${u.key}` },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="coast-field-notes.zip"; filename*=UTF-8''coast-field-notes.zip`,
    );
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const names = Object.keys(zip.files)
      .filter((n) => !zip.files[n]!.dir)
      .sort();
    expect(names).toEqual([
      "index.md",
      "notes/visit-plan-2.md",
      "notes/visit-plan.md",
      "sources/gone-page.md",
      "sources/life-in-the-tide-pools.md",
    ]);

    const index = await zip.file("index.md")!.async("string");
    expect(index).toContain("# Coast: field notes");
    expect(index).toContain("Tide pools and otters");
    expect(index).toContain("- [Life in the tide pools](sources/life-in-the-tide-pools.md)");
    expect(index).toContain("(notes/visit-plan-2.md)");

    const src = await zip.file("sources/life-in-the-tide-pools.md")!.async("string");
    expect(src.startsWith('---\ntitle: "Life in the tide pools"\n')).toBe(true);
    expect(src).toContain(`url: "${web.url("/article")}"`);
    expect(src).toContain('author: "');
    expect(src).toContain('site: "Coast Weekly"');
    expect(src).toContain("saved_at: ");
    expect(src).toContain('published_at: "2024-03-05T09:30:00.000Z"');
    expect(src).toContain("tube feet");

    const gone = await zip.file("sources/gone-page.md")!.async("string");
    expect(gone).toContain("could not be fetched: http_410");
    const note = await zip.file("notes/visit-plan.md")!.async("string");
    expect(note).toMatch(/^---\ntitle: "Visit plan"\n/);
  }, 60_000);
});

describe("a notebook of many sources", () => {
  test("is read page by page as the zip is pulled, and every source and note is in it", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: "Big" } })).body;
    const total = EXPORT_PAGE_SIZE * 2 + 50;
    const now = new Date().toISOString();
    // One multi-row INSERT per table (either engine): hundreds of single inserts would be slow on a network database.
    const rows = { sources: [] as (string | null)[][], links: [] as string[][], notes: [] as string[][] };
    for (let i = 0; i < total; i++) {
      const id = newId("source");
      const url = `https://example.com/${i}`;
      rows.sources.push([id, u.userId, url, url, `Same title`, `Body ${i}`, now, now]);
      rows.links.push([nb.id, id, now]);
      rows.notes.push([newId("note"), u.userId, nb.id, `Note ${i}`, `Note body ${i}`, now, now]);
    }
    const insert = (head: string, values: (string | null)[][], tuple: string) =>
      sqlRows(ctx.db, `${head} VALUES ${values.map(() => tuple).join(", ")}`, ...values.flat());
    await insert(
      "INSERT INTO sources (id, user_id, url, normalized_url, title, status, content, created_at, updated_at)",
      rows.sources,
      "(?, ?, ?, ?, ?, 'ready', ?, ?, ?)",
    );
    await insert("INSERT INTO notebook_sources (notebook_id, source_id, added_at)", rows.links, "(?, ?, ?)");
    await insert(
      "INSERT INTO notes (id, user_id, notebook_id, title, content, created_at, updated_at)",
      rows.notes,
      "(?, ?, ?, ?, ?, ?, ?)",
    );

    const actor = systemActor(u.userId, "test");
    const pages = exportPages(ctx.services, actor, nb.id);
    const reads: string[] = [];
    const counted = {
      sources: async (before: string | undefined, limit: number) => (
        reads.push("s"), await pages.sources(before, limit)
      ),
      notes: async (before: string | undefined, limit: number) => (reads.push("n"), await pages.notes(before, limit)),
    };
    const reader = notebookZip(await ctx.services.notebooks.getRow(actor, nb.id), counted).getReader();
    await reader.read();
    expect(reads).toEqual(["s"]); // one page of sources so far, nothing else
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(reads).toEqual(["s", "s", "s", "n", "n", "n"]);

    const res = await ctx.app.handle(
      new Request(`http://localhost/api/v1/notebooks/${nb.id}/export/markdown`, {
        headers: { authorization: `Bearer ${u.key}` },
      }),
    );
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
    expect(names.filter((n) => n.startsWith("sources/"))).toHaveLength(total);
    expect(names.filter((n) => n.startsWith("notes/"))).toHaveLength(total);
    expect(names).toContain(`sources/same-title-${total}.md`);
    expect(names.at(-1)).toBe("index.md");
    const index = await zip.file("index.md")!.async("string");
    expect(index.split("\n").filter((l) => l.startsWith("- [")).length).toBe(total * 2);
    const bodies = await Promise.all(
      names.filter((n) => n.startsWith("sources/")).map((n) => zip.file(n)!.async("string")),
    );
    expect(new Set(bodies.map((b) => /Body (\d+)/.exec(b)![1])).size).toBe(total);
  }, 60_000);
});

describe("exportMarkdown (the one export the API and the web page serve)", () => {
  test("names the zip after the notebook, holds the owner's rows and refuses another user's notebook", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const other = await userWithKey(ctx);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: "Crème brûlée" } })).body;
    await call(ctx, "POST", "/api/v1/notes", {
      key: u.key,
      body: { title: "Caramel", content: "Burn the sugar.", notebook_id: nb.id },
    });
    const { filename, zip } = await ctx.services.notebooks.exportMarkdown(systemActor(u.userId, "test"), nb.id);
    expect(filename).toBe("creme-brulee.zip");
    const files = await JSZip.loadAsync(await new Response(zip).arrayBuffer());
    expect(Object.keys(files.files).filter((n) => !files.files[n]!.dir)).toEqual(["notes/caramel.md", "index.md"]);
    await expect(ctx.services.notebooks.exportMarkdown(systemActor(other.userId, "test"), nb.id)).rejects.toThrow(
      "Notebook",
    );
    const res = await ctx.app.handle(
      new Request(`http://localhost/api/v1/notebooks/${nb.id}/export/markdown`, {
        headers: { authorization: `Bearer ${u.key}` },
      }),
    );
    expect(res.headers.get("content-disposition")).toContain('filename="creme-brulee.zip"');
  });
});
