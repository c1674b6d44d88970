// The Highlights page across the library: newest first with notes and links into the reader, filters
// by notebook and tag, the CSV for the signed-in browser, and search restricted to highlights.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { insertReadySource } from "../../features/podcasts/testing.ts";
import { setup, signedInPerson } from "./test-helpers.ts";

describe("the Highlights page", () => {
  test("lists every highlight with its note and place, filters by tag and notebook, and downloads as CSV", async () => {
    const { ctx, b, me } = await setup();
    const pools = await insertReadySource(ctx.services, me.userId, {
      title: "Pools",
      markdown: "Sea stars cling to the rock at low tide. Crabs hide under weed.",
    });
    const bread = await insertReadySource(ctx.services, me.userId, {
      title: "Bread",
      markdown: "=SUM(A1) is not a loaf. Knead the dough for ten minutes.",
    });
    await call(ctx, "PATCH", `/api/v1/sources/${pools}`, { key: me.key, body: { tags: ["ocean"] } });
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: me.key, body: { name: "Kitchen" } })).body.id;
    await call(ctx, "PUT", `/api/v1/notebooks/${nb}/sources/${bread}`, { key: me.key });
    const a = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: me.key,
        body: { source_id: pools, exact: "cling to the rock", note: "tube feet", color: "green" },
      })
    ).body;
    const c = (
      await call(ctx, "POST", "/api/v1/highlights", { key: me.key, body: { source_id: bread, exact: "=SUM(A1)" } })
    ).body;
    const other = await signedInPerson(ctx);
    const page = await b.get("/highlights");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<blockquote class="quote hl-green">cling to the rock</blockquote>');
    expect(page.text).toContain('<p class="note">tube feet</p>');
    expect(page.text).toContain(`href="/library/sources/${pools}#hl-${a.id}"`);
    expect(page.text.indexOf(c.id)).toBeLessThan(page.text.indexOf(a.id)); // newest first
    const byTag = await b.get("/highlights?tag=ocean");
    expect(byTag.text).toContain(a.id);
    expect(byTag.text).not.toContain(c.id);
    const byNotebook = await b.get(`/highlights?notebook=${nb}`);
    expect(byNotebook.text).toContain(c.id);
    expect(byNotebook.text).not.toContain(a.id);
    const csv = await b.get("/highlights/export.csv");
    expect(csv.headers.get("content-disposition")).toContain("highlights.csv");
    expect(csv.text.split("\r\n")[0]).toBe("Highlight,Title,Author,URL,Note,Location,Date");
    expect(csv.text).toContain("'=SUM(A1)");
    expect((await other.b.get("/highlights")).text).not.toContain("cling to the rock");
  });

  test("search can look in highlights only, and a hit opens the reader at the highlight", async () => {
    const { ctx, b, me } = await setup();
    const s = await insertReadySource(ctx.services, me.userId, { title: "Pools", markdown: "Anemones fold inward." });
    const h = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: me.key,
        body: { source_id: s, exact: "Anemones fold inward", note: "to keep moisture" },
      })
    ).body;
    await ctx.runner.drain({ timeoutMs: 30_000 });
    const found = await b.get("/search?q=moisture&type=highlight");
    expect(found.status).toBe(200);
    expect(found.text).toContain(`href="/library/sources/${s}#hl-${h.id}"`);
  });
});
