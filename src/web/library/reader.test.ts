// The reader's forms without script: typography and theme kept per user, archive / favorite / read,
// tags; the progress route the script calls (validation, owner scoping, no event); the outline and
// heading ids; the "original gone" notice.
import { afterAll, describe, expect, test } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { sqlRows } from "../../db/inspect.ts";
import { post, send, setup, signedInPerson, type Person } from "./test-helpers.ts";

const web = startOutsideWeb();
/** A long article with four headings (one repeated), served by a local site of its own. */
const LONG = `<!doctype html><html lang="en"><head><title>Rivers of the north</title></head><body><main><article>
<h1>Rivers of the north</h1>
${["Sources", "The middle course", "Sources", "Where they meet the sea"]
  .map(
    (h, i) =>
      `<h2>${h}</h2>${Array.from({ length: 4 }, (_, j) => `<p>Paragraph ${i}.${j} about the rivers that run north through birch and pine, carrying snowmelt and silt to the cold sea.</p>`).join("")}`,
  )
  .join("\n")}
</article></main></body></html>`;
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => new Response(LONG, { headers: { "content-type": "text/html; charset=utf-8" } }),
});
const contexts: TestContext[] = [];
afterAll(async () => {
  void web.stop();
  void site.stop(true);
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function reader() {
  const s = await setup();
  contexts.push(s.ctx);
  const made = await call(s.ctx, "POST", "/api/v1/sources", { key: s.me.key, body: { url: web.url("/article") } });
  await s.ctx.runner.drain();
  return { ...s, id: made.body.id as string };
}

const source = async (ctx: TestContext, p: Person, id: string) =>
  (await call(ctx, "GET", `/api/v1/sources/${id}`, { key: p.key })).body;

describe("reading settings", () => {
  test("the Aa form saves the person's typography and theme; the reader opens with them", async () => {
    const { ctx, b, me, id } = await reader();
    const first = await b.get(`/library/sources/${id}`);
    expect(first.text).toContain(
      'data-font="serif" data-size="19" data-line-height="1.60" data-width="medium" data-theme="auto"',
    );
    const saved = await post(ctx, b, `/library/sources/${id}/reader/preferences`, {
      reader_font: "sans",
      reader_size: "22",
      reader_line_height: "1.8",
      reader_width: "narrow",
      reader_theme: "sepia",
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/library/sources/${id}?notice=settings_saved`);
    expect((await call(ctx, "GET", "/api/v1/me/preferences", { key: me.key })).body).toMatchObject({
      reader_font: "sans",
      reader_size: 22,
      reader_line_height: 1.8,
      reader_width: "narrow",
      reader_theme: "sepia",
    });
    const page = await b.get(saved.location!);
    expect(page.text).toContain("Reading settings saved.");
    expect(page.text).toContain(
      'data-font="sans" data-size="22" data-line-height="1.80" data-width="narrow" data-theme="sepia"',
    );
    expect(page.text).toContain('<input type="radio" name="reader_theme" value="sepia" checked>');
    expect(page.text).toContain('<option value="22" selected>22 px</option>');
    // One field alone changes only that one.
    await post(ctx, b, `/library/sources/${id}/reader/preferences`, { reader_theme: "dark" });
    const prefs = (await call(ctx, "GET", "/api/v1/me/preferences", { key: me.key })).body;
    expect(prefs).toMatchObject({ reader_theme: "dark", reader_font: "sans", reader_size: 22 });
  });

  test("a value out of range is refused beside the form, changing nothing; a line height set by the API is offered", async () => {
    const { ctx, b, me, id } = await reader();
    for (const [field, value, words] of [
      ["reader_size", "99", "Choose a size from 14 to 26 px."],
      ["reader_line_height", "3", "Choose a line spacing from 1.2 to 2.2."],
      ["reader_theme", "neon", "Choose auto, light, sepia or dark."],
      ["reader_font", "<b>", "Choose serif or sans."],
    ] as const) {
      const res = await post(ctx, b, `/library/sources/${id}/reader/preferences`, {
        reader_font: "sans",
        [field]: value,
      });
      expect(res.status).toBe(422);
      expect(res.text).toContain(`<p class="field-error" id="f-r-settings-error">${words}</p>`);
      expect(res.text).toContain('<details class="r-pop" data-pop open>');
    }
    expect((await call(ctx, "GET", "/api/v1/me/preferences", { key: me.key })).body.reader_font).toBe("serif");
    await call(ctx, "PATCH", "/api/v1/me/preferences", { key: me.key, body: { reader_line_height: 1.65 } });
    const page = await b.get(`/library/sources/${id}`);
    expect(page.text).toContain('data-line-height="1.65"');
    expect(page.text).toContain('<option value="1.65" selected>1.65</option>');
  });

  test("without the session's CSRF token nothing is saved", async () => {
    const { ctx, b, me, id } = await reader();
    const res = await send(
      ctx,
      b,
      `/library/sources/${id}/reader/preferences`,
      new URLSearchParams({ csrf: "forged", reader_theme: "dark" }),
    );
    expect(res.status).toBe(403);
    expect((await call(ctx, "GET", "/api/v1/me/preferences", { key: me.key })).body.reader_theme).toBe("auto");
  });
});

describe("reading state without script", () => {
  test("archive, favorite and mark read / unread, each back on the reader with the toolbar turned", async () => {
    const { ctx, b, me, id } = await reader();
    const state = (fields: Record<string, string>) => post(ctx, b, `/library/sources/${id}/reader/state`, fields);
    const page0 = await b.get(`/library/sources/${id}`);
    expect(page0.text).toContain('<input type="hidden" name="read" value="true"><button type="submit" class="tool"');

    expect((await state({ read: "true" })).location).toBe(`/library/sources/${id}?notice=read`);
    let s = await source(ctx, me, id);
    expect(s.read_at).not.toBeNull();
    expect(s.progress).toBe(1);
    const page = await b.get(`/library/sources/${id}?notice=read`);
    expect(page.text).toContain("Marked as read.");
    expect(page.text).toContain('<input type="hidden" name="read" value="false"><button type="submit" class="tool on"');
    expect(page.text).toContain('<span class="sr-only">Mark as unread</span>');

    expect((await state({ read: "false" })).location).toBe(`/library/sources/${id}?notice=unread`);
    s = await source(ctx, me, id);
    expect([s.read_at, s.progress]).toEqual([null, 0]);

    expect((await state({ archived: "true" })).location).toBe(`/library/sources/${id}?notice=archived`);
    expect((await state({ favorite: "true" })).location).toBe(`/library/sources/${id}?notice=favorited`);
    s = await source(ctx, me, id);
    expect([s.archived, s.favorite]).toEqual([true, true]);
    const after = await b.get(`/library/sources/${id}`);
    expect(after.text).toContain('<span class="sr-only">Move back to the inbox</span>');
    expect(after.text).toContain('<span class="sr-only">Remove from favorites</span>');
    await state({ archived: "false" });
    expect((await source(ctx, me, id)).archived).toBe(false);

    for (const bad of [{}, { read: "yes" }, { pinned: "true" }] as Record<string, string>[]) {
      expect((await state(bad)).status).toBe(422);
    }
  });

  test("tags: comma-separated, trimmed, without repeats; empty removes them; too long is refused", async () => {
    const { ctx, b, me, id } = await reader();
    const saved = await post(ctx, b, `/library/sources/${id}/reader/tags`, { tags: " tides, <b>sea</b> ,tides,, " });
    expect(saved.location).toBe(`/library/sources/${id}?notice=tags_saved`);
    expect((await source(ctx, me, id)).tags).toEqual(["tides", "<b>sea</b>"]);
    const page = await b.get(`/library/sources/${id}`);
    expect(page.text).toContain('value="tides, &lt;b&gt;sea&lt;/b&gt;"');
    expect(page.text).toContain('<a class="tag" href="/library?tag=tides">#tides</a>');
    expect((await post(ctx, b, `/library/sources/${id}/reader/tags`, { tags: "x".repeat(101) })).status).toBe(422);
    await post(ctx, b, `/library/sources/${id}/reader/tags`, { tags: "" });
    expect((await source(ctx, me, id)).tags).toEqual([]);
  });

  test("the tag field offers the library's tags as completions, most used first, and nobody else's", async () => {
    const { ctx, b, me, id } = await reader();
    const save = (p: Person, path: string, tags: string[]) =>
      call(ctx, "POST", "/api/v1/sources", { key: p.key, body: { url: web.url(path), tags } });
    expect((await save(me, "/a", ["<i>sea</i>", "birds"])).status).toBe(201);
    expect((await save(me, "/b", ["birds"])).status).toBe(201);
    const other = await signedInPerson(ctx);
    expect((await save(other, "/c", ["their-secret"])).status).toBe(201);
    const page = (await b.get(`/library/sources/${id}`)).text;
    expect(page).toContain('list="r-tag-names"');
    expect(page).toContain(
      '<datalist id="r-tag-names" data-tag-names><option value="birds"></option><option value="&lt;i&gt;sea&lt;/i&gt;"></option></datalist>',
    );
    expect(page).not.toContain("their-secret");
  });
});

describe("the progress route", () => {
  const progress = (ctx: TestContext, p: Person, id: string, value: string, csrf?: string) =>
    send(
      ctx,
      p.b,
      `/library/sources/${id}/reader/progress`,
      new URLSearchParams({ csrf: csrf ?? "", progress: value }),
    );

  test("saves the place (no event), reaching 1 marks read; the reader carries it for the script", async () => {
    const { ctx, b, me, id } = await reader();
    const csrf = (await b.get(`/library/sources/${id}`)).text.match(/name="csrf" value="([^"]+)"/)![1]!;
    const events = async () =>
      (await sqlRows<{ n: number }>(ctx.db, "SELECT COUNT(*) AS n FROM events WHERE user_id = ?", me.userId))[0]!.n;
    const before = Number(await events());
    const res = await progress(ctx, me, id, "0.42", csrf);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await source(ctx, me, id)).progress).toBe(0.42);
    expect(Number(await events())).toBe(before);
    expect((await b.get(`/library/sources/${id}`)).text).toContain(
      `data-source="${id}" data-progress="0.42" data-font=`,
    );
    expect((await b.get(`/library/sources/${id}`)).text).toContain('max="100" value="42"');

    expect((await progress(ctx, me, id, "1", csrf)).status).toBe(204);
    const s = await source(ctx, me, id);
    expect(s.progress).toBe(1);
    expect(s.read_at).not.toBeNull();
    expect((await b.get(`/library/sources/${id}`)).text).toContain(' data-read data-font="serif"');
  });

  test("a bad value is 422 problem+json naming progress; another's source 404; no session 401; no token 403", async () => {
    const { ctx, b, me, id } = await reader();
    const csrf = (await b.get(`/library/sources/${id}`)).text.match(/name="csrf" value="([^"]+)"/)![1]!;
    for (const bad of ["", "abc", "1.5", "-0.1", "0x1", "1e-1", "NaN", "0.5.5"]) {
      const res = await progress(ctx, me, id, bad, csrf);
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = JSON.parse(res.text);
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors[0].path).toBe("progress");
    }
    expect((await source(ctx, me, id)).progress).toBe(0);

    const other = await signedInPerson(ctx);
    const otherCsrf = (await other.b.get("/library")).text.match(/name="csrf" value="([^"]+)"/)![1]!;
    const theirs = await progress(ctx, other, id, "0.9", otherCsrf);
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.text).code).toBe("not_found");
    expect((await source(ctx, me, id)).progress).toBe(0);

    const forged = await progress(ctx, me, id, "0.9", "forged");
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text).code).toBe("csrf_failed");
    const anonymous = await ctx.app.handle(
      new Request(`http://localhost/library/sources/${id}/reader/progress`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "progress=0.9",
      }),
    );
    expect(anonymous.status).toBe(401);
    expect((await source(ctx, me, id)).progress).toBe(0);
  });
});

describe("the article", () => {
  test("headings get stable, deduplicated ids and, from three on, an outline", async () => {
    const { ctx, b, me } = await setup();
    contexts.push(ctx);
    const made = await call(ctx, "POST", "/api/v1/sources", {
      key: me.key,
      body: { url: `http://127.0.0.1:${site.port}/rivers` },
    });
    await ctx.runner.drain();
    const page = await b.get(`/library/sources/${made.body.id}`);
    expect(page.status).toBe(200);
    for (const h of [
      '<h2 id="sources">Sources</h2>',
      '<h2 id="the-middle-course">The middle course</h2>',
      '<h2 id="sources-2">Sources</h2>',
      '<h2 id="where-they-meet-the-sea">Where they meet the sea</h2>',
    ])
      expect(page.text).toContain(h);
    expect(page.text).toContain('<nav class="r-outline" id="r-outline" aria-label="Outline">');
    expect(page.text).toContain('<li class="l1"><a href="#sources-2">Sources</a></li>');
    expect(page.text).toContain('<details class="r-outline-narrow"><summary>Contents</summary>');
    // The tide-pool article has one heading: no outline.
    const short = await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: web.url("/article") } });
    await ctx.runner.drain();
    const one = await b.get(`/library/sources/${short.body.id}`);
    expect(one.text).toContain('<h2 id="holding-on">Holding on</h2>');
    expect(one.text).not.toContain('<nav class="r-outline"');
    expect(one.text).not.toContain('<details class="r-outline-narrow">');
  });

  test("when the original is gone or has moved the page says the saved copy reads in full", async () => {
    const { ctx, b, id } = await reader();
    expect((await b.get(`/library/sources/${id}`)).text).not.toContain('class="notice"');
    await sqlRows(
      ctx.db,
      "UPDATE sources SET original_status = 'gone', original_checked_at = ? WHERE id = ?",
      "2025-01-02T03:04:05.000Z",
      id,
    );
    const gone = await b.get(`/library/sources/${id}`);
    expect(gone.text).toContain("<strong>The original page is gone</strong>");
    expect(gone.text).toContain("This saved copy is complete");
    expect(gone.text).toContain("Tide pools are small worlds");
    await sqlRows(ctx.db, "UPDATE sources SET original_status = 'moved' WHERE id = ?", id);
    expect((await b.get(`/library/sources/${id}`)).text).toContain("<strong>The original page has moved</strong>");
  });

  test("the reading script is served with a long cache under its versioned path", async () => {
    const { b, id } = await reader();
    const page = await b.get(`/library/sources/${id}`);
    const path = page.text.match(/<script src="(\/assets\/reader\.js\?v=[0-9a-f]{12})" defer><\/script>/)![1]!;
    const script = await b.get(path);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toContain("immutable");
    expect(script.text).toContain("/reader/progress");
    // The page's policy admits the reader's stylesheet by hash and loads scripts only from this site.
    const csp = page.headers.get("content-security-policy")!;
    expect(csp.match(/style-src ([^;]+)/)![1]!.split(" ")).toHaveLength(3);
    expect(csp).toContain("script-src 'sha256-");
  });
});

describe("highlights in the reader", () => {
  const csrfOfPage = (text: string) => text.match(/name="csrf" value="([^"]+)"/)![1]!;

  test("made from a selection (JSON), listed beside the article, edited and deleted by plain forms", async () => {
    const { ctx, b, me, id } = await reader();
    const csrf = csrfOfPage((await b.get(`/library/sources/${id}`)).text);
    const json = { accept: "application/json" };
    const made = await send(
      ctx,
      b,
      `/library/sources/${id}/reader/highlights`,
      new URLSearchParams({ csrf, exact: "sea  stars", prefix: "Anemones, ", start: "87", end: "96", color: "blue" }),
      json,
    );
    expect(made.status).toBe(201);
    const h = JSON.parse(made.text);
    expect([h.exact, h.color, h.position.start, h.note]).toEqual(["sea stars", "blue", 87, null]);

    const page = await b.get(`/library/sources/${id}`);
    expect(page.text).toContain(
      `<li class="hl-item hl-blue" id="hl-${h.id}" data-highlight="${h.id}" data-start="87" data-end="96" data-color="blue" data-exact="sea stars">`,
    );
    expect(page.text).toContain('<div class="hl-pop" id="r-hl-pop" hidden>');

    // Without script: the list's forms, back to the entry.
    const edited = await post(ctx, b, `/library/sources/${id}/reader/highlights/${h.id}`, {
      color: "pink",
      note: "Tube feet!\r\n<b>grip</b>",
    });
    expect(edited.location).toBe(`/library/sources/${id}?notice=highlight_saved#hl-${h.id}`);
    const after = await b.get(`/library/sources/${id}`);
    expect(after.text).toContain('<p class="hl-note">Tube feet!\n&lt;b&gt;grip&lt;/b&gt;</p>');
    expect(after.text).toContain(`id="f-hl-${h.id}-pink" name="color" value="pink" checked>`);
    expect((await call(ctx, "GET", `/api/v1/highlights/${h.id}`, { key: me.key })).body.color).toBe("pink");
    // An empty note clears it; a bad colour is refused.
    await post(ctx, b, `/library/sources/${id}/reader/highlights/${h.id}`, { note: "" });
    expect((await call(ctx, "GET", `/api/v1/highlights/${h.id}`, { key: me.key })).body.note).toBeNull();
    expect((await post(ctx, b, `/library/sources/${id}/reader/highlights/${h.id}`, { color: "red" })).status).toBe(422);

    // The column alone, for the script.
    const column = await b.get(`/library/sources/${id}/reader/highlights`);
    expect(column.text).toStartWith('<aside class="r-side" id="r-highlights"');

    const gone = await post(ctx, b, `/library/sources/${id}/reader/highlights/${h.id}/delete`);
    expect(gone.location).toBe(`/library/sources/${id}?notice=highlight_deleted#r-highlights`);
    expect((await call(ctx, "GET", `/api/v1/highlights/${h.id}`, { key: me.key })).status).toBe(404);
    expect((await b.get(`/library/sources/${id}`)).text).toContain("Select text in the article to highlight it.");
  });

  test("bad selections are problem+json naming the field; another's highlight or source is 404", async () => {
    const { ctx, b, me, id } = await reader();
    const csrf = csrfOfPage((await b.get(`/library/sources/${id}`)).text);
    const json = { accept: "application/json" };
    const create = (fields: Record<string, string>, who = b, token = csrf) =>
      send(ctx, who, `/library/sources/${id}/reader/highlights`, new URLSearchParams({ csrf: token, ...fields }), json);
    for (const [fields, path] of [
      [{ exact: "" }, "exact"],
      [{ exact: "not in this article at all" }, "exact"],
      [{ exact: "sea stars", color: "red" }, "color"],
      [{ exact: "sea stars", note: "x".repeat(10_001) }, "note"],
    ] as const) {
      const res = await create(fields);
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(JSON.parse(res.text).errors[0].path).toContain(path);
    }
    const mine = JSON.parse((await create({ exact: "sea stars" })).text);

    const other = await signedInPerson(ctx);
    const theirCsrf = csrfOfPage((await other.b.get("/library")).text);
    expect((await create({ exact: "sea stars" }, other.b, theirCsrf)).status).toBe(404);
    const edit = await send(
      ctx,
      other.b,
      `/library/sources/${id}/reader/highlights/${mine.id}`,
      new URLSearchParams({ csrf: theirCsrf, note: "mine now" }),
      json,
    );
    expect(edit.status).toBe(404);
    expect((await other.b.get(`/library/sources/${id}/reader/highlights`)).status).toBe(404);
    // The highlight's own source must be the one in the path.
    const second = (await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: web.url("/notes.txt") } }))
      .body.id;
    expect((await post(ctx, b, `/library/sources/${second}/reader/highlights/${mine.id}/delete`)).status).toBe(404);
    expect((await call(ctx, "GET", `/api/v1/highlights/${mine.id}`, { key: me.key })).body.note).toBeNull();
  });

  test("an orphaned highlight is listed with a flag, not marked in the text", async () => {
    const { ctx, b, me, id } = await reader();
    const h = (
      await call(ctx, "POST", "/api/v1/highlights", { key: me.key, body: { source_id: id, exact: "hermit crabs" } })
    ).body;
    await sqlRows(ctx.db, "UPDATE highlights SET orphaned = ? WHERE id = ?", true, h.id);
    const page = await b.get(`/library/sources/${id}`);
    expect(page.text).toContain(`data-exact="hermit crabs" data-orphaned>`);
    expect(page.text).toContain('<h3 class="r-col-title">Not found in the text</h3>');
    expect(page.text).toContain("<strong>Not in the current text</strong>");
  });
});
