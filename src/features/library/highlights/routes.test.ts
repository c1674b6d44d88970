// Highlights over HTTP: anchoring on create, filters and paging, update and delete with their events,
// validation, isolation between users, the CSV export, and re-anchoring after a real refetch.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { articleText } from "./anchor.ts";
import { ARTICLE, readySource, startPages } from "./test-support.ts";

const site = startPages({ "/tides": ARTICLE, "/other": "# Other\n\nAnother page about the sea comes back fast." });
afterAll(() => site.stop());

describe("highlights", () => {
  test("create anchors the quote, fills the context, and records highlight.created", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const src = await readySource(ctx, a.key, site.url("/tides"));
    const text = articleText(ARTICLE);
    // "the sea comes back fast" occurs twice: the suffix picks the second.
    const r = await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: src.id, exact: "the sea  comes\nback fast", suffix: " again.", color: "green", note: "twice" },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/v1/highlights/${r.body.id}`);
    expect(r.body.id).toMatch(/^hl_[0-9A-Z]{26}$/);
    const second = text.lastIndexOf("the sea comes back fast");
    expect(r.body).toMatchObject({
      source_id: src.id,
      exact: "the sea comes back fast",
      suffix: " again.",
      position: { start: second, end: second + 23 },
      color: "green",
      note: "twice",
      orphaned: false,
      source: { title: "Tide pools", url: site.url("/tides") },
    });
    expect(r.body.prefix).toBe(text.slice(second - 32, second));
    // Without context the first occurrence is taken, or the one nearest the hint.
    const first = await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: src.id, exact: "The sea comes back fast" },
    });
    expect(first.body.position.start).toBe(text.indexOf("The sea comes back fast"));
    expect(first.body.color).toBe("yellow");
    expect(first.body.note).toBeNull();
    const hinted = await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: src.id, exact: "sea", position: { start: second, end: second + 3 } },
    });
    expect(hinted.body.position.start).toBe(second + 4);
    const events = (await ctx.services.events.forUser(a.userId, { limit: 20 })).filter((e) =>
      e.type.startsWith("highlight."),
    );
    expect(events.map((e) => e.type)).toEqual(["highlight.created", "highlight.created", "highlight.created"]);
    expect(events.at(-1)!.data).toEqual(r.body);
    // The service gives a source's highlights in text order.
    const inOrder = await ctx.services.highlights.forSource(
      { userId: a.userId, auth: { type: "system", reason: "t" } },
      src.id,
    );
    expect(inOrder.map((h) => h.position.start)).toEqual(
      [...inOrder.map((h) => h.position.start)].sort((x, y) => x - y),
    );
    expect(inOrder).toHaveLength(3);
  });

  test("a quote not in the text is 422 naming exact; a pending source is 409; bad fields are 422", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const src = await readySource(ctx, a.key, site.url("/tides"));
    const missing = await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: src.id, exact: "not in this article" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].path).toBe("exact");
    const pending = await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: site.url("/other") } });
    const p = await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: pending.body.id, exact: "sea" },
    });
    expect(p.status).toBe(409);
    const bsrc = await readySource(ctx, b.key, site.url("/tides"));
    const cases: [unknown, string][] = [
      [{ exact: "sea" }, "source_id"],
      [{ source_id: src.id }, "exact"],
      [{ source_id: src.id, exact: "" }, "exact"],
      [{ source_id: src.id, exact: "x".repeat(5001) }, "exact"],
      [{ source_id: src.id, exact: "sea", prefix: "p".repeat(201) }, "prefix"],
      [{ source_id: src.id, exact: "sea", color: "red" }, "color"],
      [{ source_id: src.id, exact: "sea", note: "n".repeat(10_001) }, "note"],
      [{ source_id: src.id, exact: "sea", position: { start: -1, end: 3 } }, "position.start"],
      [{ source_id: src.id, exact: "sea", extra: 1 }, "extra"],
      [{ source_id: bsrc.id, exact: "sea" }, "source_id"],
    ];
    for (const [body, path] of cases) {
      const r = await call(ctx, "POST", "/api/v1/highlights", { key: a.key, body });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toBe(path);
    }
  });

  test("update and delete record events; another user's highlight is 404 on every verb", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const src = await readySource(ctx, a.key, site.url("/tides"));
    const h = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: { source_id: src.id, exact: "tube feet", note: "n" },
      })
    ).body;
    const u = await call(ctx, "PATCH", `/api/v1/highlights/${h.id}`, { key: a.key, body: { color: "purple" } });
    expect(u.body).toMatchObject({ color: "purple", note: "n", exact: "tube feet" });
    const cleared = await call(ctx, "PATCH", `/api/v1/highlights/${h.id}`, { key: a.key, body: { note: null } });
    expect(cleared.body.note).toBeNull();
    expect((await call(ctx, "PATCH", `/api/v1/highlights/${h.id}`, { key: a.key, body: { exact: "x" } })).status).toBe(
      422,
    );
    for (const [method, path, body] of [
      ["GET", `/api/v1/highlights/${h.id}`],
      ["PATCH", `/api/v1/highlights/${h.id}`, { note: "mine" }],
      ["DELETE", `/api/v1/highlights/${h.id}`],
    ] as const) {
      expect((await call(ctx, method, path, { key: b.key, body })).status).toBe(404);
    }
    expect((await call(ctx, "GET", "/api/v1/highlights", { key: b.key })).body.data).toEqual([]);
    expect((await call(ctx, "GET", "/api/v1/highlights/export.csv", { key: b.key })).text).toBe(
      "Highlight,Title,Author,URL,Note,Location,Date\r\n",
    );
    expect((await call(ctx, "GET", "/api/v1/highlights", {})).status).toBe(401);
    const d = await call(ctx, "DELETE", `/api/v1/highlights/${h.id}`, { key: a.key });
    expect(d.body).toMatchObject({ id: h.id, color: "purple" });
    expect((await call(ctx, "GET", `/api/v1/highlights/${h.id}`, { key: a.key })).status).toBe(404);
    const events = (await ctx.services.events.forUser(a.userId, { limit: 20 })).filter((e) =>
      e.type.startsWith("highlight."),
    );
    expect(events.map((e) => e.type).reverse()).toEqual([
      "highlight.created",
      "highlight.updated",
      "highlight.updated",
      "highlight.deleted",
    ]);
    expect(events[2]!.previous).toMatchObject({ color: "yellow" });
    // Deleting the source takes its highlights along.
    const h2 = (
      await call(ctx, "POST", "/api/v1/highlights", { key: a.key, body: { source_id: src.id, exact: "sea" } })
    ).body;
    await call(ctx, "DELETE", `/api/v1/sources/${src.id}`, { key: a.key });
    expect((await call(ctx, "GET", `/api/v1/highlights/${h2.id}`, { key: a.key })).status).toBe(404);
  });

  test("list filters (source, notebook, tag, created_after) and cursor paging with a Link header", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const a = await userWithKey(ctx);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Sea" } })).body;
    const s1 = await readySource(ctx, a.key, site.url("/tides"), { notebook_ids: [nb.id] });
    const s2 = await readySource(ctx, a.key, site.url("/other"));
    await call(ctx, "PATCH", `/api/v1/sources/${s2.id}`, { key: a.key, body: { tags: ["ocean"] } });
    const make = async (source_id: string, exact: string) => {
      now += 60_000;
      return (await call(ctx, "POST", "/api/v1/highlights", { key: a.key, body: { source_id, exact } })).body
        .id as string;
    };
    const h1 = await make(s1.id, "Tide pools");
    const h2 = await make(s1.id, "tube feet");
    const h3 = await make(s2.id, "Another page");
    const ids = async (q: string) =>
      (await call(ctx, "GET", `/api/v1/highlights?${q}`, { key: a.key })).body.data.map((h: { id: string }) => h.id);
    expect(await ids("")).toEqual([h3, h2, h1]);
    expect(await ids(`source_id=${s1.id}`)).toEqual([h2, h1]);
    expect(await ids(`notebook_id=${nb.id}`)).toEqual([h2, h1]);
    expect(await ids("tag=ocean")).toEqual([h3]);
    expect(await ids("created_after=2026-01-01T00:01:30Z")).toEqual([h3, h2]);
    const p1 = await call(ctx, "GET", "/api/v1/highlights?limit=2", { key: a.key });
    expect(p1.body.data.map((h: { id: string }) => h.id)).toEqual([h3, h2]);
    expect(p1.headers.get("link")).toContain('rel="next"');
    const p2 = await call(ctx, "GET", `/api/v1/highlights?limit=2&cursor=${p1.body.next_cursor}`, { key: a.key });
    expect(p2.body).toMatchObject({ data: [{ id: h1 }], next_cursor: null });
    expect((await call(ctx, "GET", "/api/v1/highlights?source_id=nope", { key: a.key })).status).toBe(422);
    expect((await call(ctx, "GET", "/api/v1/highlights?cursor=bad", { key: a.key })).status).toBe(422);
  });

  test("CSV export: Readwise columns, RFC 4180 quoting, formula guard, filters, attachment", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    site.set(
      "/csv",
      '# A "quoted", title\n\n=SUM(A1) is a formula. Plain, with "quotes" and a comma.\n\n@handle here.',
    );
    const src = await readySource(ctx, a.key, site.url("/csv"));
    const h1 = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: { source_id: src.id, exact: "=SUM(A1) is a formula." },
      })
    ).body;
    const h2 = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: { source_id: src.id, exact: 'Plain, with "quotes"', note: "-1 line\nnext" },
      })
    ).body;
    const r = await ctx.app.handle(
      new Request("http://localhost/api/v1/highlights/export.csv", { headers: { authorization: `Bearer ${a.key}` } }),
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toStartWith('attachment; filename="highlights.csv"');
    const title = '"A ""quoted"", title"';
    expect(await r.text()).toBe(
      "Highlight,Title,Author,URL,Note,Location,Date\r\n" +
        `"Plain, with ""quotes""",${title},,${src.url},"'-1 line\nnext",${h2.position.start},${h2.created_at}\r\n` +
        `'=SUM(A1) is a formula.,${title},,${src.url},,${h1.position.start},${h1.created_at}\r\n`,
    );
    const other = await call(ctx, "GET", `/api/v1/highlights/export.csv?source_id=src_01J0000000000000000000000A`, {
      key: a.key,
    });
    expect(other.text).toBe("Highlight,Title,Author,URL,Note,Location,Date\r\n");
  });

  test("a refetch re-anchors: moved quotes follow the text, vanished ones are kept as orphaned", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    site.set("/changing", ARTICLE);
    const src = await readySource(ctx, a.key, site.url("/changing"));
    const moved = (
      await call(ctx, "POST", "/api/v1/highlights", { key: a.key, body: { source_id: src.id, exact: "tube feet" } })
    ).body;
    const gone = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: { source_id: src.id, exact: "small worlds", note: "keep me" },
      })
    ).body;
    const changed = `# Tide pools\n\nA new introduction paragraph comes first now.\n\n${ARTICLE.split("\n\n")[2]}`;
    site.set("/changing", changed);
    expect((await call(ctx, "POST", `/api/v1/sources/${src.id}/refetch`, { key: a.key })).status).toBeLessThan(300);
    await ctx.runner.drain();
    const text = articleText(changed);
    const m = (await call(ctx, "GET", `/api/v1/highlights/${moved.id}`, { key: a.key })).body;
    expect(m.position).toEqual({ start: text.indexOf("tube feet"), end: text.indexOf("tube feet") + 9 });
    expect(m.position.start).not.toBe(moved.position.start);
    expect(m.orphaned).toBe(false);
    const g = (await call(ctx, "GET", `/api/v1/highlights/${gone.id}`, { key: a.key })).body;
    expect(g).toMatchObject({ orphaned: true, exact: "small worlds", note: "keep me", position: gone.position });
    // The text coming back un-orphans it.
    site.set("/changing", ARTICLE);
    await call(ctx, "POST", `/api/v1/sources/${src.id}/refetch`, { key: a.key });
    await ctx.runner.drain();
    expect((await call(ctx, "GET", `/api/v1/highlights/${gone.id}`, { key: a.key })).body.orphaned).toBe(false);
  });

  test("a workflow triggered by highlight.created runs with the highlight's fields", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const src = await readySource(ctx, a.key, site.url("/tides"));
    const wf = await call(ctx, "POST", "/api/v1/workflows", {
      key: a.key,
      body: {
        name: "Quote notebooks",
        trigger: { type: "event", event: "highlight.created" },
        actions: [{ id: "nb", type: "create_notebook", name: "Quote: {{ exact }} ({{ color }})" }],
      },
    });
    expect(wf.status).toBe(201);
    await call(ctx, "POST", "/api/v1/highlights", { key: a.key, body: { source_id: src.id, exact: "tube feet" } });
    await ctx.runner.drain();
    const names = (await call(ctx, "GET", "/api/v1/notebooks", { key: a.key })).body.data.map(
      (n: { name: string }) => n.name,
    );
    expect(names).toEqual(["Quote: tube feet (yellow)"]);
  });
});
