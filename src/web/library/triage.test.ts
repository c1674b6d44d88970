// The Library page without script: triage tabs and counts, the cards' forms (archive, favorite, tag,
// notebook) and the bulk form (with its delete confirmation) through the real app, session and CSRF;
// the JSON answer the page's script gets; the cards/list choice kept in the account's preferences.
import { describe, expect, test } from "bun:test";
import { systemActor } from "../../actor.ts";
import { sqlRows } from "../../db/inspect.ts";
import { call } from "../../../test/helpers.ts";
import { post, send, setup, signedInPerson } from "./test-helpers.ts";
import { insertReadySource } from "../../features/podcasts/testing.ts";

type Ctx = Awaited<ReturnType<typeof setup>>;

/** Sources saved through the service (pending: nothing is fetched), oldest first. */
async function saved(t: Ctx, n: number, prefix = "Page"): Promise<string[]> {
  const actor = systemActor(t.me.userId, "test");
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      (
        await t.ctx.services.sources.create(actor, {
          url: `https://example.com/${prefix}${i}`,
          title: `${prefix} ${i}`,
        })
      ).source.id,
    );
  return ids;
}

const titles = (text: string) =>
  [...text.matchAll(/class="title" href="\/library\/sources\/[^"]+">([^<]+)</g)].map((m) => m[1]);
const tabCount = (text: string, label: string) =>
  Number(new RegExp(`>${label} <span class="count">([\\d,]+)</span>`).exec(text)?.[1]?.replace(",", "") ?? "NaN");

async function eventsOf(t: Ctx, id: string): Promise<string[]> {
  const rows = await sqlRows<{ type: string; data: string }>(t.ctx.db, "SELECT type, data FROM events ORDER BY seq");
  return rows.filter((r) => r.data.includes(id)).map((r) => r.type);
}

describe("library triage without script", () => {
  test("tabs: the inbox is unread and not archived; favorites, archive and all, each with its count", async () => {
    const t = await setup();
    const actor = systemActor(t.me.userId, "test");
    const [a, b, c, d] = await saved(t, 4);
    await t.ctx.services.sources.update(actor, a!, { archived: true });
    await t.ctx.services.sources.update(actor, b!, { favorite: true });
    await t.ctx.services.sources.update(actor, c!, { read: true });

    const inbox = await t.b.get("/library");
    expect(titles(inbox.text)).toEqual(["Page 3", "Page 1"]);
    expect(inbox.text).toContain('<a href="/library" aria-current="page">Inbox');
    expect([tabCount(inbox.text, "Inbox"), tabCount(inbox.text, "Favorites")]).toEqual([2, 1]);
    expect([tabCount(inbox.text, "Archive"), tabCount(inbox.text, "All")]).toEqual([1, 4]);
    expect(titles((await t.b.get("/library?view=favorites")).text)).toEqual(["Page 1"]);
    expect(titles((await t.b.get("/library?view=archive")).text)).toEqual(["Page 0"]);
    expect(titles((await t.b.get("/library?view=all")).text)).toEqual(["Page 3", "Page 2", "Page 1", "Page 0"]);
    // Counts are of the whole library: with a filter on, none are shown rather than misleading ones.
    expect((await t.b.get("/library?tag=x")).text).not.toContain('class="count"');
    expect(d).toBeDefined();
  });

  test("a card's archive form archives, records the event and comes back to the same view and page", async () => {
    const t = await setup();
    const ids = await saved(t, 23);
    const first = await t.b.get("/library?sort=saved_at");
    const more = /href="(\/library\?sort=saved_at&amp;before=[^"]+)" rel="next"/
      .exec(first.text)![1]!
      .replaceAll("&amp;", "&");
    const res = await post(t.ctx, t.b, `/library/sources/${ids[1]}/triage`, { op: "archive", back: more });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${more}&done=archive&n=1`);
    const back = await t.b.get(res.location!);
    expect(back.text).toContain("Archived 1 source.");
    expect(titles(back.text)).toEqual(["Page 2", "Page 0"]);
    expect(await eventsOf(t, ids[1]!)).toEqual(["source.created", "source.updated"]);
    expect(titles((await t.b.get("/library?view=archive")).text)).toEqual(["Page 1"]);

    // Unarchive from the archive: back in the inbox. Archiving twice changes (and records) nothing.
    const un = await post(t.ctx, t.b, `/library/sources/${ids[1]}/triage`, {
      op: "unarchive",
      back: "/library?view=archive",
    });
    expect(un.location).toBe("/library?view=archive&done=unarchive&n=1");
    await post(t.ctx, t.b, `/library/sources/${ids[2]}/triage`, { op: "archive", back: "/library" });
    await post(t.ctx, t.b, `/library/sources/${ids[2]}/triage`, { op: "archive", back: "/library" });
    expect(await eventsOf(t, ids[2]!)).toEqual(["source.created", "source.updated"]);
  });

  test("favorite comes back to the card (#s-id); a tag is added once; a notebook is joined", async () => {
    const t = await setup();
    const [id] = await saved(t, 1);
    const nb = await t.ctx.services.notebooks.create(systemActor(t.me.userId, "test"), { name: "Tides <3>" });
    const fav = await post(t.ctx, t.b, `/library/sources/${id}/triage`, { op: "favorite", back: "/library" });
    expect(fav.location).toBe(`/library?done=favorite&n=1#s-${id}`);
    const page = await t.b.get("/library?view=favorites");
    expect(page.text).toContain('data-act="favorite" aria-pressed="true"');
    expect(page.text).toContain('name="op" value="unfavorite"');

    for (const tag of ["  slow reading ", "slow reading"])
      await post(t.ctx, t.b, `/library/sources/${id}/triage`, { op: "tag", tag, back: "/library" });
    const bad = await post(t.ctx, t.b, `/library/sources/${id}/triage`, { op: "tag", tag: " ", back: "/library" });
    expect(bad.location).toBe("/library?notice=bad_tag");
    expect((await t.b.get(bad.location!)).text).toContain("Enter a tag of at most 100 characters.");
    await post(t.ctx, t.b, `/library/sources/${id}/triage`, { op: "notebook", notebook_id: nb.id, back: "/library" });
    const api = await call(t.ctx, "GET", `/api/v1/sources/${id}`, { key: t.me.key });
    expect(api.body).toMatchObject({ favorite: true, tags: ["slow reading"], notebook_ids: [nb.id] });
    const list = await t.b.get("/library");
    expect(list.text).toContain('<a class="tag" href="/library?tag=slow%20reading">#slow reading</a>');
    expect(list.text).toContain(`<a class="nb" href="/notebooks/${nb.id}">Tides &lt;3&gt;</a>`);
    // The tag chip in another view keeps the view.
    expect((await t.b.get("/library?view=favorites")).text).toContain(
      'href="/library?view=favorites&amp;tag=slow%20reading"',
    );
  });

  test("the script's answer is JSON: the card re-rendered and whether it still belongs on the page", async () => {
    const t = await setup();
    const [id] = await saved(t, 1);
    const arch = await post(t.ctx, t.b, `/library/sources/${id}/triage`, {
      op: "archive",
      back: "/library",
      fragment: "card",
    });
    expect(arch.status).toBe(200);
    const body = JSON.parse(arch.text);
    expect(body.message).toBe("Archived “Page 0”.");
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ id, in_view: false });
    expect(body.items[0].html).toStartWith(`<li data-live="source" data-live-id="${id}"`);
    expect(body.items[0].html).toContain('name="op" value="unarchive"');
    const fav = JSON.parse(
      (
        await post(t.ctx, t.b, `/library/sources/${id}/triage`, {
          op: "favorite",
          back: "/library?view=archive",
          fragment: "row",
        })
      ).text,
    );
    expect(fav.items[0].in_view).toBe(true);
    expect(fav.items[0].html).toContain('class="line is-archived"');
    const tagged = JSON.parse(
      (
        await post(t.ctx, t.b, `/library/sources/${id}/triage`, {
          op: "tag",
          tag: "deep",
          back: "/library",
          fragment: "card",
        })
      ).text,
    );
    expect(tagged.message).toBe("Tagged “Page 0” #deep.");
    // Another person's source is not found, with or without script, and stays as it was.
    const other = await signedInPerson(t.ctx);
    expect(
      (await post(t.ctx, other.b, `/library/sources/${id}/triage`, { op: "unarchive", back: "/library" })).status,
    ).toBe(404);
    const foreign = await post(t.ctx, other.b, `/library/sources/${id}/triage`, { op: "unarchive", fragment: "card" });
    expect(foreign.status).toBe(404);
    expect((await call(t.ctx, "GET", `/api/v1/sources/${id}`, { key: t.me.key })).body.archived).toBe(true);
    const bad = await post(t.ctx, t.b, `/library/sources/${id}/triage`, { op: "explode", fragment: "card" });
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text).detail).toContain("must be one of");
  });

  test("bulk: tag and archive the selected; another user's id is skipped and unchanged; bad ids and too many are refused", async () => {
    const t = await setup();
    const ids = await saved(t, 3);
    const other = await signedInPerson(t.ctx);
    const theirs = (
      await t.ctx.services.sources.create(systemActor(other.userId, "test"), { url: "https://example.com/theirs" })
    ).source.id;
    const tag = await post(t.ctx, t.b, "/library/bulk", {
      op: "tag",
      tag: "later",
      ids: [...ids, theirs],
      back: "/library",
    });
    expect(tag.location).toBe("/library?done=tag&n=3&missing=1");
    expect((await t.b.get(tag.location!)).text).toContain("Tagged 3 sources. 1 source could not be found.");
    const arch = await post(t.ctx, t.b, "/library/bulk", { op: "archive", ids: [ids[0]!, ids[2]!], back: "/library" });
    expect(arch.location).toBe("/library?done=archive&n=2");
    expect(titles((await t.b.get("/library?view=archive&tag=later")).text)).toEqual(["Page 2", "Page 0"]);
    expect(titles((await t.b.get("/library")).text)).toEqual(["Page 1"]);
    const api = await call(t.ctx, "GET", `/api/v1/sources/${theirs}`, { key: other.key });
    expect(api.body).toMatchObject({ archived: false, tags: [] });
    for (const id of ids)
      expect((await eventsOf(t, id)).filter((e) => e === "source.updated").length).toBeGreaterThan(0);

    const junk = await post(t.ctx, t.b, "/library/bulk", { op: "archive", ids: ["src_nope"], back: "/library" });
    expect(junk.status).toBe(422);
    expect(junk.text).toContain("ids[0]");
    const many = Array.from({ length: 201 }, (_, i) => `src_${String(i).padStart(26, "0")}`);
    expect((await post(t.ctx, t.b, "/library/bulk", { op: "archive", ids: many })).status).toBe(422);
    const none = await post(t.ctx, t.b, "/library/bulk", { op: "archive", back: "/library?view=all" });
    expect(none.location).toBe("/library?view=all&notice=none_selected");
    // A foreign return address is not followed.
    expect(
      (await post(t.ctx, t.b, "/library/bulk", { op: "archive", ids: [ids[1]!], back: "https://evil.example/" }))
        .location,
    ).toBe("/library?done=archive&n=1");
  });

  test("bulk delete asks on a page listing how many, then deletes them", async () => {
    const t = await setup();
    const ids = await saved(t, 3);
    const ask = await post(t.ctx, t.b, "/library/bulk", { op: "delete", ids: [ids[0]!, ids[1]!], back: "/library" });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain("<h1>Delete 2 sources?</h1>");
    expect(ask.text).toContain("<li>Page 0</li>");
    expect(ask.text).toContain('<form method="post" action="/library/bulk/delete">');
    expect((await call(t.ctx, "GET", "/api/v1/sources", { key: t.me.key })).body.data).toHaveLength(3);
    const done = await post(t.ctx, t.b, "/library/bulk/delete", { ids: [ids[0]!, ids[1]!], back: "/library" });
    expect(done.location).toBe("/library?done=deleted&n=2");
    expect((await t.b.get(done.location!)).text).toContain("Deleted 2 sources.");
    const left = (await call(t.ctx, "GET", "/api/v1/sources", { key: t.me.key })).body.data;
    expect(left.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
  });

  test("forms without the session's CSRF token change nothing", async () => {
    const t = await setup();
    const [id] = await saved(t, 1);
    const form = new URLSearchParams({ op: "archive", csrf: "forged", back: "/library" });
    expect((await send(t.ctx, t.b, `/library/sources/${id}/triage`, form)).status).toBe(403);
    form.append("ids", id!);
    expect((await send(t.ctx, t.b, "/library/bulk", form)).status).toBe(403);
    expect((await call(t.ctx, "GET", `/api/v1/sources/${id}`, { key: t.me.key })).body.archived).toBe(false);
  });

  test("cards or list: the choice is kept in the account's preferences", async () => {
    const t = await setup();
    await saved(t, 2);
    expect((await t.b.get("/library")).text).toContain('<ul class="cards"');
    const res = await post(t.ctx, t.b, "/library/layout", { layout: "list", back: "/library?view=all" });
    expect(res.location).toBe("/library?view=all");
    const page = await t.b.get("/library");
    expect(page.text).toContain('<ul class="rows"');
    expect(page.text).toContain('data-live-fragment="/library/sources/');
    expect(page.text).toMatch(/name="layout" value="list" class="seg" aria-pressed="true"/);
    const prefs = await call(t.ctx, "GET", "/api/v1/me/preferences", { key: t.me.key });
    expect(prefs.body.library_view).toBe("list");
    expect((await post(t.ctx, t.b, "/library/layout", { layout: "grid" })).status).toBe(422);
  });

  test("original gone: a badge on the card and a filter; select=all checks every box of the page", async () => {
    const t = await setup();
    const [a, b] = await saved(t, 2);
    await sqlRows(t.ctx.db, "UPDATE sources SET original_status = ? WHERE id = ?", "gone", a!);
    await sqlRows(t.ctx.db, "UPDATE sources SET original_status = ? WHERE id = ?", "moved", b!);
    const gone = await t.b.get("/library?original=gone");
    expect(titles(gone.text)).toEqual(["Page 0"]);
    expect(gone.text).toContain(">Original gone</span>");
    expect((await t.b.get("/library?view=all")).text).toContain(">Original moved</span>");
    const all = await t.b.get("/library?view=all&select=all");
    expect(
      all.text.match(/class="pick" name="ids" value="src_[0-9A-Z]{26}" form="bulk" aria-label="[^"]+" checked>/g),
    ).toHaveLength(2);
  });
});

describe("a new library and suggested tags", () => {
  test("an empty library opens with the first-run panel: a first link, the extension, an import", async () => {
    const { b } = await setup();
    const page = await b.get("/library");
    expect(page.text).toContain("Welcome to your library");
    expect(page.text).toContain('<a href="/settings/extension">Get the browser extension</a>');
    expect(page.text).toContain('<a href="/settings/import-export">Import your bookmarks</a>');
  });

  test("a card offers its suggested tags; one click makes one a tag and it leaves the suggestions", async () => {
    const { ctx, b, me } = await setup();
    const id = await insertReadySource(ctx.services, me.userId, { title: "Pools", markdown: "Sea stars." });
    await call(ctx, "PATCH", `/api/v1/sources/${id}`, {
      key: me.key,
      body: { suggested_tags: ["oceans", "tide pools"] },
    });
    const page = await b.get("/library");
    expect(page.text).not.toContain("Welcome to your library");
    expect(page.text).toContain('<input type="hidden" name="tag" value="oceans">');
    const added = await post(ctx, b, `/library/sources/${id}/triage`, { op: "tag", tag: "oceans", back: "/library" });
    expect(added.status).toBe(303);
    const source = (await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key })).body;
    expect(source.tags).toEqual(["oceans"]);
    expect(source.suggested_tags).toEqual(["tide pools"]);
  });
});

test("every tag field of the library completes from the owner's tags, most used first", async () => {
  const { ctx, b, me } = await setup();
  const id = await insertReadySource(ctx.services, me.userId, { title: "x", markdown: "y" });
  await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: me.key, body: { tags: ["rust", "wasm"] } });
  const page = await b.get("/library");
  expect(page.text).toContain(
    '<datalist id="tag-names"><option value="rust"></option><option value="wasm"></option></datalist>',
  );
  expect(page.text).toContain(
    'id="f-tag" name="tag" type="text" value="" maxlength="100" autocomplete="off" list="tag-names"',
  );
});

test("the reader's tags panel offers the suggested tags; one click adds one to the others", async () => {
  const { ctx, b, me } = await setup();
  const id = await insertReadySource(ctx.services, me.userId, { title: "Pools", markdown: "Sea stars." });
  await call(ctx, "PATCH", `/api/v1/sources/${id}`, {
    key: me.key,
    body: { tags: ["coast"], suggested_tags: ["oceans"] },
  });
  const page = await b.get(`/library/sources/${id}`);
  expect(page.text).toContain('<input type="hidden" name="tags" value="coast, oceans">');
  const r = await post(ctx, b, `/library/sources/${id}/reader/tags`, { tags: "coast, oceans" });
  expect(r.status).toBe(303);
  const source = (await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key })).body;
  expect(source.tags).toEqual(["coast", "oceans"]);
  expect(source.suggested_tags).toEqual([]);
});
