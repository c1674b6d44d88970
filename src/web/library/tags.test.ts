// The tag pages: every tag with its count and merge proposals, one tag's sources and highlights, and
// rename, merge and delete as plain forms; names with spaces and symbols travel in the address.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { insertReadySource } from "../../features/podcasts/testing.ts";
import { post, setup } from "./test-helpers.ts";

async function tagged() {
  const { ctx, b, me } = await setup();
  const a = await insertReadySource(ctx.services, me.userId, {
    title: "Pools at dawn",
    markdown: "Sea stars cling to the rock at low tide.",
  });
  const c = await insertReadySource(ctx.services, me.userId, { title: "C++ notes", markdown: "Templates." });
  await call(ctx, "PATCH", `/api/v1/sources/${a}`, { key: me.key, body: { tags: ["tide pools", "Tide-Pools"] } });
  await call(ctx, "PATCH", `/api/v1/sources/${c}`, { key: me.key, body: { tags: ["c++", "a/b"] } });
  return { ctx, b, me, a, c };
}

describe("tag pages", () => {
  test("the tags page lists each tag with its count and proposes merging the look-alikes", async () => {
    const { b } = await tagged();
    const page = await b.get("/tags");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/tags/c%2B%2B">c++</a>');
    expect(page.text).toContain('<a href="/tags/a%2Fb">a/b</a>');
    expect(page.text).toContain('name="merge" value="Tide-Pools"');
    expect(page.text).toContain("the same words spelled differently");
    const found = await b.get("/tags?q=TIDE");
    expect(found.text).toContain(">tide pools</a>");
    expect(found.text).not.toContain(">c++</a>");
  });

  test("a tag's page shows its sources and the highlights in them; an unknown tag is a 404 page", async () => {
    const { ctx, b, me, a } = await tagged();
    await call(ctx, "POST", "/api/v1/highlights", {
      key: me.key,
      body: { source_id: a, exact: "cling to the rock", note: "strong feet" },
    });
    const page = await b.get("/tags/tide%20pools");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>#tide pools · Commonplace</title>");
    expect(page.text).toContain("Pools at dawn</a>");
    expect(page.text).toContain("cling to the rock</blockquote>");
    expect(page.text).toContain("strong feet");
    expect((await b.get("/tags/nothing-here")).status).toBe(404);
  });

  test("rename onto a new name, merge onto an existing one, delete after asking", async () => {
    const { ctx, b, me, a, c } = await tagged();
    const renamed = await post(ctx, b, "/tags/c%2B%2B/rename", { name: "cpp" });
    expect(renamed.location).toBe("/tags/cpp?notice=renamed");
    expect((await call(ctx, "GET", `/api/v1/sources/${c}`, { key: me.key })).body.tags).toEqual(["cpp", "a/b"]);
    const merged = await post(ctx, b, "/tags/merge", { merge: "Tide-Pools", keep: "tide pools" });
    expect(merged.location).toBe("/tags/tide%20pools?notice=merged");
    expect((await call(ctx, "GET", `/api/v1/sources/${a}`, { key: me.key })).body.tags).toEqual(["tide pools"]);
    const blank = await post(ctx, b, "/tags/cpp/rename", { name: "  " });
    expect(blank.status).toBe(422);
    expect(blank.text).toContain("Give the tag a name.");
    const ask = await b.get("/tags/a%2Fb/delete");
    expect(ask.text).toContain("Delete this tag?");
    const gone = await post(ctx, b, "/tags/a%2Fb/delete");
    expect(gone.location).toBe("/tags?notice=deleted");
    expect((await call(ctx, "GET", `/api/v1/sources/${c}`, { key: me.key })).body.tags).toEqual(["cpp"]);
  });
});
