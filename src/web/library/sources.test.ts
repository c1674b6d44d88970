// The library and the reader through the real app: save a link, see it pending, read it once fetched,
// notebooks, refetch, delete, failures in plain words, filters and paging.
import { afterAll, describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { systemActor } from "../../actor.ts";
import { idIn, post, setup } from "./test-helpers.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

describe("library", () => {
  test("a saved link is listed as pending, newest first, then reads as an article once fetched", async () => {
    const { ctx, b } = await setup();
    const first = await post(ctx, b, "/library/sources", { url: web.url("/notes.txt") });
    const saved = await post(ctx, b, "/library/sources", { url: web.url("/article"), title: "" });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/library?notice=added");
    expect(first.location).toBe("/library?notice=added");

    const list = await b.get("/library?notice=added");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Saved. It is being fetched");
    expect(list.text.match(/class="status pending">Pending</g)).toHaveLength(2);
    expect(list.text.indexOf(web.url("/article"))).toBeLessThan(list.text.indexOf(web.url("/notes.txt")));
    const id = idIn(list.text.slice(list.text.indexOf(web.url("/article")) - 200), "src");

    await ctx.runner.drain();
    const reader = await b.get(`/library/sources/${id}`);
    expect(reader.status).toBe(200);
    expect(reader.text).toContain("<h1>Life in the tide pools</h1>");
    expect(reader.text).toContain("Mara Quinn");
    expect(reader.text).toContain("Coast Weekly");
    expect(reader.text).toContain('<time datetime="2024-03-05T09:30:00.000Z">2024-03-05</time>');
    expect(reader.text).toContain(
      `<a class="tool" href="${web.url("/article")}" rel="noopener noreferrer nofollow" title="Open the original">`,
    );
    expect(reader.text).toContain('<h2 id="holding-on">Holding on</h2>');
    expect(reader.text).toContain(`<a href="${web.url("/tides")}" rel="nofollow noopener noreferrer">tide table</a>`);
    expect(reader.text).not.toContain("casino");
    // Images come from this site only: the archived copy's are served here.
    expect(reader.headers.get("content-security-policy")).toContain("img-src 'self' data:;");
    // A ready source needs no status word on its card; pending and failed ones have one.
    const after = (await b.get("/library")).text;
    expect(after).not.toContain('class="status pending"');
    expect(after).toContain(">Life in the tide pools</a>");
  });

  test("saving a URL that is already saved says so and only adds the chosen notebooks", async () => {
    const { ctx, b, me } = await setup();
    const nb = await ctx.services.notebooks.create(systemActor(me.userId, "test"), { name: "Coast" });
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const again = await post(ctx, b, "/library/sources", { url: `${web.url("/article")}#top` });
    expect(again.location).toBe("/library?notice=exists");
    expect((await b.get(again.location!)).text).toContain("This link is already saved in your library.");
    const withNb = await post(ctx, b, "/library/sources", { url: web.url("/article"), notebook_ids: [nb.id] });
    expect(withNb.location).toBe("/library?notice=exists_added");
    const api = await call(ctx, "GET", "/api/v1/sources", { key: me.key });
    expect(api.body.data).toHaveLength(1);
    expect(api.body.data[0].notebook_ids).toEqual([nb.id]);
  });

  test("a new link can go straight into several notebooks", async () => {
    const { ctx, b, me } = await setup();
    const a = await post(ctx, b, "/notebooks", { name: "A" });
    const c = await post(ctx, b, "/notebooks", { name: "C" });
    const [nbA, nbC] = [idIn(a.location!, "nb"), idIn(c.location!, "nb")];
    const page = await b.get("/library");
    expect(page.text).toContain(`<input type="checkbox" name="notebook_ids" value="${nbA}">`);
    await post(ctx, b, "/library/sources", { url: web.url("/article"), title: "Tides", notebook_ids: [nbA, nbC] });
    const api = await call(ctx, "GET", "/api/v1/sources", { key: me.key });
    expect(api.body.data[0]).toMatchObject({ title: "Tides", status: "pending" });
    expect([...api.body.data[0].notebook_ids].sort()).toEqual([nbA, nbC].sort());
  });

  test("bad input re-renders the form with the fields kept and a message, and saves nothing", async () => {
    const { ctx, b, me } = await setup();
    const empty = await post(ctx, b, "/library/sources", { url: "  " });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain("Enter the link to save.");
    const js = await post(ctx, b, "/library/sources", { url: "javascript:alert(1)", title: "<b>t</b>" });
    expect(js.status).toBe(422);
    expect(js.text).toContain("This link cannot be saved");
    expect(js.text).toContain('value="&lt;b&gt;t&lt;/b&gt;"');
    expect(js.text).not.toContain("<b>t</b>");
    const ghost = await post(ctx, b, "/library/sources", {
      url: web.url("/article"),
      notebook_ids: ["nb_01ARZ3NDEKTSV4RRFFQ69G5FAV"],
    });
    expect(ghost.status).toBe(422);
    expect(ghost.text).toContain("One of the chosen notebooks no longer exists.");
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(0);
  });

  test("a source that failed shows why in plain words, with its code", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/missing") });
    await ctx.runner.drain();
    const list = await b.get("/library?status=failed");
    expect(list.text).toContain(
      '<span class="status failed" title="http_404">Failed: the page was not found (HTTP 404)</span>',
    );
    const reader = await b.get(`/library/sources/${idIn(list.text, "src")}`);
    expect(reader.text).toContain("<strong>It could not be fetched:</strong> the page was not found (HTTP 404).");
    expect((await b.get("/library?status=pending")).text).toContain("No sources match these filters.");
  });

  test("the reader adds the source to a notebook and removes it again", async () => {
    const { ctx, b, me } = await setup();
    const nbId = idIn((await post(ctx, b, "/notebooks", { name: "Reading <list>" })).location!, "nb");
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const id = idIn((await b.get("/library")).text, "src");
    const add = await post(ctx, b, `/library/sources/${id}/notebooks`, { notebook_id: nbId });
    expect(add.location).toBe(`/library/sources/${id}?notice=added_to_notebook`);
    const reader = await b.get(add.location!);
    expect(reader.text).toContain(`<a href="/notebooks/${nbId}">Reading &lt;list&gt;</a>`);
    expect(reader.text).toContain(`action="/library/sources/${id}/notebooks/${nbId}/remove"`);
    expect((await b.get(`/library?notebook=${nbId}`)).text).toContain(`/library/sources/${id}`);
    const remove = await post(ctx, b, `/library/sources/${id}/notebooks/${nbId}/remove`);
    expect(remove.location).toBe(`/library/sources/${id}?notice=removed_from_notebook`);
    expect((await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key })).body.notebook_ids).toEqual([]);
    expect((await b.get(`/library?notebook=${nbId}`)).text).toContain("No sources match these filters.");
  });

  test("refetch queues the source again; while pending it says it is already being fetched", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const id = idIn((await b.get("/library")).text, "src");
    const busy = await post(ctx, b, `/library/sources/${id}/refetch`);
    expect(busy.location).toBe(`/library/sources/${id}?notice=already_fetching`);
    await ctx.runner.drain();
    const hits = web.hits.get("/article") ?? 0;
    const again = await post(ctx, b, `/library/sources/${id}/refetch`);
    expect(again.location).toBe(`/library/sources/${id}?notice=refetching`);
    expect((await b.get(again.location!)).text).toContain('class="status pending">Pending<');
    await ctx.runner.drain();
    expect(web.hits.get("/article")).toBe(hits + 1);
  });

  test("delete asks on its own page first, then removes the source", async () => {
    const { ctx, b, me } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/article"), title: "Doomed" });
    const id = idIn((await b.get("/library")).text, "src");
    const confirm = await b.get(`/library/sources/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Delete this source?");
    expect(confirm.text).toContain(`<form method="post" action="/library/sources/${id}/delete">`);
    expect((await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key })).status).toBe(200);
    const gone = await post(ctx, b, `/library/sources/${id}/delete`);
    expect(gone.location).toBe("/library?notice=deleted");
    expect((await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key })).status).toBe(404);
    expect((await b.get(`/library/sources/${id}`)).status).toBe(404);
  });

  test("the list pages with a More link that keeps the filters", async () => {
    const { ctx, b, me } = await setup();
    for (let i = 0; i < 22; i++)
      await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: `https://example.com/p${i}` } });
    const first = await b.get("/library?status=pending");
    expect(first.text.match(/<li data-live="source"/g)).toHaveLength(20);
    const more = /href="(\/library\?status=pending&amp;before=src_[0-9A-Z]{26})" rel="next"/.exec(first.text);
    expect(more).not.toBeNull();
    const second = await b.get(more![1]!.replace(/&amp;/g, "&"));
    expect(second.text.match(/<li data-live="source"/g)).toHaveLength(2);
    expect(second.text).toContain("https://example.com/p0");
    expect(second.text).not.toContain('rel="next"');
  });

  test("sorted by saved time, the More link carries the saved time and id and reaches the rest", async () => {
    const { ctx, b, me } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const r = await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: `https://example.com/s${i}` } });
      ids.push(r.body.id);
    }
    // Saved times in the reverse order of creation: the saved-time order differs from the id order.
    for (const [i, id] of ids.entries())
      await sqlRows(
        ctx.db,
        "UPDATE sources SET saved_at = ? WHERE id = ?",
        new Date(Date.UTC(2020, 0, 1) + (100 - i) * 60_000).toISOString(),
        id,
      );
    const first = await b.get("/library?sort=saved_at");
    expect(first.text.match(/<li data-live="source"/g)).toHaveLength(20);
    const more = /href="(\/library\?sort=saved_at&amp;before=[^"]+)" rel="next"/.exec(first.text);
    expect(more).not.toBeNull();
    const href = more![1]!.replace(/&amp;/g, "&");
    expect(new URL(href, "http://x").searchParams.get("before")).toBe(`2020-01-01T01:21:00.000Z|${ids[19]}`);
    const second = await b.get(href);
    expect(second.text.match(/<li data-live="source"/g)).toHaveLength(2);
    expect(second.text).toContain("https://example.com/s21");
    expect(second.text).not.toContain('https://example.com/s19"');
    expect(second.text).not.toContain('rel="next"');
  });
});
