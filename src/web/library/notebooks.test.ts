// Notebooks in the web app: create with counts, rename and describe, add and remove sources, the
// session-authenticated Markdown zip, and delete that keeps the sources and notes.
import { afterAll, describe, expect, test } from "bun:test";
import JSZip from "jszip";
import { call } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { testBrowser } from "../../../test/browser-client.ts";
import { idIn, post, setup } from "./test-helpers.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

describe("notebooks", () => {
  test("create lands on the notebook; the list shows it with its counts", async () => {
    const { ctx, b } = await setup();
    const created = await post(ctx, b, "/notebooks", { name: "  Sea life  ", description: "Pools\r\nand reefs" });
    expect(created.status).toBe(303);
    const id = idIn(created.location!, "nb");
    expect(created.location).toBe(`/notebooks/${id}?notice=created`);
    const page = await b.get(created.location!);
    expect(page.text).toContain("<h1>Sea life</h1>");
    expect(page.text).toContain("Notebook created.");
    expect(page.text).toContain("Pools\nand reefs");

    await post(ctx, b, "/library/sources", { url: web.url("/article"), notebook_ids: [id] });
    await post(ctx, b, "/notes", { content: "A note", notebook_id: id });
    const list = await b.get("/notebooks");
    expect(list.text).toContain(`<a class="title" href="/notebooks/${id}">Sea life</a>`);
    expect(list.text).toContain("<span>1 source</span><span>1 note</span>");
  });

  test("a name is required; errors re-render with the input kept", async () => {
    const { ctx, b, me } = await setup();
    const res = await post(ctx, b, "/notebooks", { name: " ", description: "<kept>" });
    expect(res.status).toBe(422);
    expect(res.text).toContain("Enter a name.");
    expect(res.text).toContain("&lt;kept&gt;</textarea>");
    const long = await post(ctx, b, "/notebooks", { name: "x".repeat(201) });
    expect(long.text).toContain("longer than 200 characters");
    expect((await call(ctx, "GET", "/api/v1/notebooks", { key: me.key })).body.data).toHaveLength(0);
  });

  test("rename and describe; clearing the description removes it", async () => {
    const { ctx, b, me } = await setup();
    const id = idIn((await post(ctx, b, "/notebooks", { name: "Draft", description: "old" })).location!, "nb");
    const saved = await post(ctx, b, `/notebooks/${id}`, { name: "Final", description: "" });
    expect(saved.location).toBe(`/notebooks/${id}?notice=saved`);
    expect((await call(ctx, "GET", `/api/v1/notebooks/${id}`, { key: me.key })).body).toMatchObject({
      name: "Final",
      description: null,
    });
    const bad = await post(ctx, b, `/notebooks/${id}`, { name: "" });
    expect(bad.status).toBe(422);
    expect((await call(ctx, "GET", `/api/v1/notebooks/${id}`, { key: me.key })).body.name).toBe("Final");
  });

  test("the notebook page lists its sources and notes and removes a source", async () => {
    const { ctx, b, me } = await setup();
    const id = idIn((await post(ctx, b, "/notebooks", { name: "Coast" })).location!, "nb");
    await post(ctx, b, "/library/sources", { url: web.url("/article"), title: "Tides", notebook_ids: [id] });
    const noteId = idIn(
      (await post(ctx, b, "/notes", { content: "# Packing list\n\nwater", notebook_id: id })).location!,
      "note",
    );
    const page = await b.get(`/notebooks/${id}`);
    const srcId = idIn(page.text.slice(page.text.indexOf("<h2>Sources</h2>")), "src");
    expect(page.text).toContain(`>Tides</a>`);
    expect(page.text).toContain(`<a class="title" href="/notes/${noteId}">Packing list</a>`);
    const removed = await post(ctx, b, `/notebooks/${id}/sources/${srcId}/remove`);
    expect(removed.location).toBe(`/notebooks/${id}?notice=removed`);
    expect((await b.get(`/notebooks/${id}`)).text).toContain("No sources yet.");
    expect((await call(ctx, "GET", `/api/v1/sources/${srcId}`, { key: me.key })).body.notebook_ids).toEqual([]);
  });

  test("export streams the same Markdown zip as the API, to the signed-in browser only", async () => {
    const { ctx, b, me } = await setup();
    const id = idIn((await post(ctx, b, "/notebooks", { name: "Coast trip" })).location!, "nb");
    await post(ctx, b, "/library/sources", { url: web.url("/article"), notebook_ids: [id] });
    await post(ctx, b, "/notes", { content: "Bring boots", title: "Gear", notebook_id: id });
    await ctx.runner.drain();
    expect((await b.get(`/notebooks/${id}`)).text).toContain(`href="/notebooks/${id}/export.zip"`);

    const res = await ctx.app.handle(
      new Request(`http://localhost/notebooks/${id}/export.zip`, {
        headers: { cookie: `cp_session=${b.jar.get("cp_session")}` },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="coast-trip.zip"');
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    expect(Object.keys(zip.files).sort()).toEqual([
      "index.md",
      "notes/",
      "notes/gear.md",
      "sources/",
      "sources/life-in-the-tide-pools.md",
    ]);
    expect(await zip.file("sources/life-in-the-tide-pools.md")!.async("string")).toContain("tube feet");
    expect(await zip.file("notes/gear.md")!.async("string")).toContain("Bring boots");

    const api = await ctx.app.handle(
      new Request(`http://localhost/api/v1/notebooks/${id}/export/markdown`, {
        headers: { authorization: `Bearer ${me.key}` },
      }),
    );
    const apiZip = await JSZip.loadAsync(await api.arrayBuffer());
    expect(Object.keys(apiZip.files).sort()).toEqual(Object.keys(zip.files).sort());

    const signedOut = await testBrowser(ctx).get(`/notebooks/${id}/export.zip`);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toBe(`/signin?next=${encodeURIComponent(`/notebooks/${id}/export.zip`)}`);
  });

  test("delete asks first, then removes the notebook but keeps its sources and notes", async () => {
    const { ctx, b, me } = await setup();
    const id = idIn((await post(ctx, b, "/notebooks", { name: "Temp" })).location!, "nb");
    await post(ctx, b, "/library/sources", { url: web.url("/article"), notebook_ids: [id] });
    const noteId = idIn((await post(ctx, b, "/notes", { content: "kept", notebook_id: id })).location!, "note");
    const confirm = await b.get(`/notebooks/${id}/delete`);
    expect(confirm.text).toContain("Delete this notebook?");
    expect(confirm.text).toContain(`action="/notebooks/${id}/delete"`);
    const gone = await post(ctx, b, `/notebooks/${id}/delete`);
    expect(gone.location).toBe("/notebooks?notice=deleted");
    expect((await b.get(`/notebooks/${id}`)).status).toBe(404);
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(1);
    expect((await call(ctx, "GET", `/api/v1/notes/${noteId}`, { key: me.key })).body.notebook_id).toBeNull();
  });
});
