// The source picker of the note editor and the notebook page, over a library larger than any list:
// search by title or address without script ("Find" keeps the draft), the fragment the script asks for,
// and adding many sources to a notebook at once (web and API).
import { describe, expect, test } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { newId } from "../../ids.ts";
import { idIn, post, setup, signedInPerson } from "./test-helpers.ts";

/** Sources straight into the table (ready, titled "Article n"), newest last; returns their ids in order. */
async function library(ctx: TestContext, userId: string, n: number, title = (i: number) => `Article ${i}`) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId("source");
    const url = `https://example.com/a/${i}`;
    await sqlRows(
      ctx.db,
      `INSERT INTO sources (id, user_id, url, normalized_url, title, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'ready', ?, ?)`,
      id,
      userId,
      url,
      url,
      title(i),
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
    );
    ids.push(id);
  }
  return ids;
}

const boxes = (text: string, name = "source_ids") =>
  [...text.matchAll(new RegExp(`<input type="checkbox" name="${name}" value="(src_[0-9A-Z]+)"( checked)?>`, "g"))].map(
    (m) => ({ id: m[1]!, checked: Boolean(m[2]) }),
  );

describe("the note editor's source picker", () => {
  test("offers a few recent sources, not the whole library; Find searches every source and keeps the draft", async () => {
    const { ctx, b, me } = await setup();
    const ids = await library(ctx, me.userId, 300);
    const blank = await b.get("/notes/new");
    expect(boxes(blank.text).length).toBe(8);
    expect(blank.text).toContain('<script src="/assets/picker.js?v=');

    const found = await post(ctx, b, "/notes", {
      title: "Draft title",
      content: "Half a thought",
      source_q: "article 17",
      find_sources: "1",
    });
    expect(found.status).toBe(200);
    expect(found.text).toContain('value="Draft title"');
    expect(found.text).toContain("Half a thought</textarea>");
    const matches = boxes(found.text).map((x) => x.id);
    // "Article 17" and "Article 170".."Article 179", newest first.
    expect(matches).toHaveLength(11);
    expect(matches).toContain(ids[17]!);
    expect(matches[0]).toBe(ids[179]!);

    const saved = await post(ctx, b, "/notes", { content: "About one", source_ids: [ids[17]!, ids[250]!] });
    expect(saved.status).toBe(303);
    const note = await call(ctx, "GET", `/api/v1/notes/${idIn(saved.location!, "note")}`, { key: me.key });
    expect([...note.body.source_ids].sort()).toEqual([ids[17]!, ids[250]!].sort());
  });

  test("an existing note's linked sources stay checked above the matches, never repeated among them", async () => {
    const { ctx, b, me } = await setup();
    const ids = await library(ctx, me.userId, 30);
    const created = await post(ctx, b, "/notes", { content: "x", source_ids: [ids[3]!] });
    const id = idIn(created.location!, "note");
    const page = await b.get(`/notes/${id}`);
    expect(
      boxes(page.text)
        .filter((x) => x.checked)
        .map((x) => x.id),
    ).toEqual([ids[3]!]);
    const again = await post(ctx, b, `/notes/${id}`, {
      content: "x",
      source_ids: [ids[3]!],
      source_q: "3",
      find_sources: "1",
    });
    const all = boxes(again.text);
    expect(all.filter((x) => x.id === ids[3]).length).toBe(1);
    expect(all.find((x) => x.id === ids[3])!.checked).toBe(true);
    expect(all.filter((x) => !x.checked).map((x) => x.id)).toContain(ids[13]!);
    expect(again.text).toContain(`About <a href="/library/sources/${ids[3]}">Article 3</a>`);
  });

  test("the fragment the script asks for: matches as escaped text, none of another user's, sign-in required", async () => {
    const { ctx, b, me } = await setup();
    const [hostile] = await library(ctx, me.userId, 1, () => `<img src=x onerror=alert(1)> 100% of_it`);
    const other = await signedInPerson(ctx);
    await library(ctx, other.userId, 1, () => "100% mine");
    const r = await b.get(`/library/source-choices?q=${encodeURIComponent("100% of_")}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain("&lt;img src=x onerror=alert(1)&gt; 100% of_it");
    expect(boxes(r.text).map((x) => x.id)).toEqual([hostile!]);
    // The wildcards are matched as typed: "_" is not any character.
    expect(boxes((await b.get("/library/source-choices?q=100%25%20ofXit")).text)).toEqual([]);
    const linked = await b.get(`/library/source-choices?q=100&linked=${hostile}`);
    expect(boxes(linked.text)).toEqual([]);
    const none = await b.get("/library/source-choices?q=zebra");
    expect(none.text).toContain("No other source has “zebra”");
    const anon = await ctx.app.handle(new Request("http://localhost/library/source-choices?q=a"));
    expect(anon.status).toBe(401);
  });
});

describe("adding many sources to a notebook", () => {
  test("from the notebook page: find, check several, add them at once", async () => {
    const { ctx, b, me } = await setup();
    const ids = await library(ctx, me.userId, 40);
    const nb = idIn((await post(ctx, b, "/notebooks", { name: "Reading" })).location!, "nb");
    const page = await b.get(`/notebooks/${nb}`);
    expect(page.text).toContain(`action="/notebooks/${nb}/sources/add"`);
    const found = await post(ctx, b, `/notebooks/${nb}/sources/add`, { source_q: "Article 2", find_sources: "1" });
    expect(boxes(found.text, "add_source_ids").map((x) => x.id)).toContain(ids[25]!);
    const added = await post(ctx, b, `/notebooks/${nb}/sources/add`, {
      add_source_ids: [ids[2]!, ids[25]!, ids[39]!, "src_not-an-id"],
    });
    expect(added.location).toBe(`/notebooks/${nb}?notice=added`);
    const listed = await call(ctx, "GET", `/api/v1/sources?notebook_id=${nb}`, { key: me.key });
    expect(listed.body.data.map((s: { id: string }) => s.id).sort()).toEqual([ids[2]!, ids[25]!, ids[39]!].sort());
    const empty = await post(ctx, b, `/notebooks/${nb}/sources/add`, {});
    expect(empty.status).toBe(422);
    expect(empty.text).toContain("Choose at least one source.");
  });

  test("over the API: one call, events for the new links only, and an unknown id fails it all naming its place", async () => {
    const { ctx, me } = await setup();
    const ids = await library(ctx, me.userId, 3);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: me.key, body: { name: "Bulk" } })).body.id;
    await call(ctx, "PUT", `/api/v1/notebooks/${nb}/sources/${ids[0]}`, { key: me.key });
    const before = (await ctx.services.events.forUser(me.userId, { limit: 100 })).length;
    const r = await call(ctx, "POST", `/api/v1/notebooks/${nb}/sources`, { key: me.key, body: { source_ids: ids } });
    expect(r.status).toBe(200);
    expect(r.body.added.sort()).toEqual([ids[1]!, ids[2]!].sort());
    expect((await ctx.services.events.forUser(me.userId, { limit: 100 })).length).toBe(before + 2);
    const other = await signedInPerson(ctx);
    const [theirs] = await library(ctx, other.userId, 1);
    const bad = await call(ctx, "POST", `/api/v1/notebooks/${nb}/sources`, {
      key: me.key,
      body: { source_ids: [ids[0]!, theirs!] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("source_ids[1]");
  });
});

describe("the notes list", () => {
  test("shows a couple of lines of each note as text, after its title line", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/notes", {
      content: "# Bread\n\n- buy **flour** and [salt](https://example.com)\n- <b>knead</b>",
    });
    const list = await b.get("/notes");
    expect(list.text).toContain('<p class="preview">buy flour and salt knead</p>');
  });
});
