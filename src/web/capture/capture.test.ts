// Saving from elsewhere through the real app: the share target (/share) and the bookmarklet's window
// (/save) save for the signed-in user with a CSRF-protected POST, find the link in shared text, say when
// it is already saved, and send a signed-out person through sign-in and back.
import { afterAll, describe, expect, test } from "bun:test";
import { call, userWithKey } from "../../../test/helpers.ts";
import { hiddenFields, testBrowser, type TestBrowser } from "../../../test/browser-client.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { systemActor } from "../../actor.ts";
import { idIn, send, setup } from "../library/test-helpers.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** Signs in through the form on `signinPage`, its hidden fields read as a browser would (entities decoded). */
async function signInThrough(b: TestBrowser, signinPage: string, email: string) {
  const page = await b.get(signinPage);
  const fields = Object.fromEntries(
    Object.entries(hiddenFields(page.text, "/signin")).map(([k, v]) => [k, v.replaceAll("&amp;", "&")]),
  );
  return b.post("/signin", { ...fields, email, password: "password123" });
}

describe("share target (/share)", () => {
  test("a link in the shared text is saved for the signed-in user and turns ready on its page", async () => {
    const { ctx, b, me } = await setup();
    const text = `Worth reading: ${web.url("/article")}.`;
    const page = await b.get(`/share?${q({ title: "Tide pools", text })}`, { "sec-fetch-site": "none" });
    expect(page.status).toBe(200);
    const fields = hiddenFields(page.text, "/share");
    expect(fields.url).toBe(web.url("/article"));
    expect(fields.title).toBe("Tide pools");
    // Opened by the share sheet: the page sends its form by itself.
    expect(page.text).toContain('action="/share" class="card" data-autosubmit');
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(0);

    const saved = await b.post("/share", fields);
    expect(saved.status).toBe(303);
    const id = idIn(saved.location!, "src");
    expect(saved.location).toBe(`/share/sources/${id}`);
    const pending = await b.get(saved.location!);
    expect(pending.text).toContain("<h1>Saved to your library</h1>");
    expect(pending.text).toContain('class="status pending">Pending<');
    expect(pending.text).toContain(
      `data-live="source" data-live-id="${id}" data-live-fragment="/share/sources/${id}/card"`,
    );
    expect(pending.text).toMatch(/data-live-since="\d+"/);
    expect(pending.text).toContain(`<a class="button" href="/library/sources/${id}">Open it</a>`);

    await ctx.runner.drain();
    const card = await b.get(`/share/sources/${id}/card`);
    expect(card.text).toStartWith("<section");
    expect(card.text).toContain('class="status ready">Ready<');
    expect(card.text).toContain("Tide pools");
    const api = await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key });
    expect(api.body).toMatchObject({ url: web.url("/article"), title: "Tide pools", status: "ready" });
  });

  test("a page that another site links to waits for a click: no auto-save across sites", async () => {
    const { b } = await setup();
    const page = await b.get(`/share?${q({ url: web.url("/article") })}`, { "sec-fetch-site": "cross-site" });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="/share" class="card">');
    expect(page.text).toContain('<button type="submit">Save</button>');
  });

  test("the POST needs the session's token and this site's origin; nothing is saved otherwise", async () => {
    const { ctx, b, me } = await setup();
    const noToken = await send(ctx, b, "/share", new URLSearchParams({ url: web.url("/article") }));
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain("This form cannot be accepted");
    const page = await b.get(`/share?${q({ url: web.url("/article") })}`);
    const crossSite = await send(ctx, b, "/share", new URLSearchParams(hiddenFields(page.text, "/share")), {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(0);
  });

  test("an already saved link says so, from the share page and from a second save", async () => {
    const { ctx, b, me } = await setup();
    const first = await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: web.url("/article") } });
    const id = first.body.id;
    const page = await b.get(`/share?${q({ text: `${web.url("/article")}#comments` })}`);
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/share/sources/${id}?already=1`);
    const shown = await b.get(page.location!);
    expect(shown.text).toContain("<h1>Already in your library</h1>");
    const fields = { ...hiddenFields((await b.get(`/share?${q({ url: "http://x.example/" })}`)).text, "/share") };
    const again = await b.post("/share", { ...fields, url: web.url("/article") });
    expect(again.location).toBe(`/share/sources/${id}?already=1`);
  });

  test("a signed-out share goes through sign-in and comes back to finish", async () => {
    const { ctx } = await setup();
    const u = await userWithKey(ctx);
    const b = testBrowser(ctx);
    const shared = `/share?${q({ title: "Tides", text: `Look ${web.url("/article")}` })}`;
    const first = await b.get(shared);
    expect(first.status).toBe(303);
    const back = `/share?${q({ url: web.url("/article"), title: "Tides" })}`;
    expect(first.location).toBe(`/signin?next=${encodeURIComponent(back)}`);
    const signedIn = await signInThrough(b, first.location!, u.email);
    expect(signedIn.location).toBe(back);
    const page = await b.get(back, { "sec-fetch-site": "same-origin" });
    expect(hiddenFields(page.text, "/share")).toMatchObject({ url: web.url("/article"), title: "Tides" });
    expect(page.text).toContain('action="/share" class="card" data-autosubmit');
    const saved = await b.post("/share", hiddenFields(page.text, "/share"));
    expect(saved.location).toMatch(/^\/share\/sources\/src_/);
    expect((await call(ctx, "GET", "/api/v1/sources", { key: u.key })).body.data[0].title).toBe("Tides");
  });

  test("no link, or a link that cannot be saved: the page says what is wrong, and no stack trace", async () => {
    const { ctx, b, me } = await setup();
    const none = await b.get(`/share?${q({ title: "Hello", text: "just some words" })}`);
    expect(none.status).toBe(422);
    expect(none.text).toContain("Nothing that was shared looks like a link");
    const ftp = await b.get(`/share?${q({ url: "ftp://files.example/a" })}`);
    expect(ftp.status).toBe(422);
    expect(ftp.text).toContain("This link cannot be saved: the address must use http or https.");
    const creds = await b.post("/share", {
      ...hiddenFields((await b.get(`/share?${q({ url: web.url("/article") })}`)).text, "/share"),
      url: "http://user:pw@example.com/",
    });
    expect(creds.status).toBe(422);
    expect(creds.text).toContain("the address must not contain credentials");
    for (const t of [none.text, ftp.text, creds.text]) expect(t).not.toMatch(/at .+\.ts:\d+/);
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(0);
  });

  test("another user's source is not found on the status page", async () => {
    const { ctx, b } = await setup();
    const other = await userWithKey(ctx);
    const theirs = await call(ctx, "POST", "/api/v1/sources", { key: other.key, body: { url: web.url("/article") } });
    expect((await b.get(`/share/sources/${theirs.body.id}`)).status).toBe(404);
    expect((await b.get(`/save/sources/${theirs.body.id}/card`)).status).toBe(404);
  });
});

describe("bookmarklet window (/save)", () => {
  test("shows the link and its title to edit, saves into the chosen notebook, then pending → ready", async () => {
    const { ctx, b, me } = await setup();
    const nb = await ctx.services.notebooks.create(systemActor(me.userId, "test"), { name: "Coast" });
    const page = await b.get(`/save?${q({ url: web.url("/article"), title: "Life <in> the pools" })}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('action="/signout"'); // a bare window: no navigation bar
    expect(page.text).toContain('value="Life &lt;in&gt; the pools"');
    expect(page.text).toContain(`<option value="${nb.id}">Coast</option>`);
    expect(page.text).toContain("data-close hidden>Close</button>");

    const saved = await b.post("/save", {
      ...hiddenFields(page.text, "/save"),
      title: "Edited title",
      notebook_id: nb.id,
    });
    expect(saved.status).toBe(303);
    const id = idIn(saved.location!, "src");
    expect(saved.location).toBe(`/save/sources/${id}`);
    const status = await b.get(saved.location!);
    expect(status.text).toContain('class="status pending">Pending<');
    expect(status.text).toContain(`href="/library/sources/${id}" target="_blank" rel="noopener">Open it</a>`);
    expect(status.text).toContain("You can close this window.");
    await ctx.runner.drain();
    expect((await b.get(`/save/sources/${id}/card`)).text).toContain('class="status ready">Ready<');
    const api = await call(ctx, "GET", `/api/v1/sources/${id}`, { key: me.key });
    expect(api.body).toMatchObject({ title: "Edited title", notebook_ids: [nb.id] });
  });

  test("CSRF: without the token or from another site nothing is saved", async () => {
    const { ctx, b, me } = await setup();
    const page = await b.get(`/save?${q({ url: web.url("/article") })}`);
    const fields = hiddenFields(page.text, "/save");
    expect((await send(ctx, b, "/save", new URLSearchParams({ url: fields.url! }))).status).toBe(403);
    const cross = await send(ctx, b, "/save", new URLSearchParams(fields), { "sec-fetch-site": "cross-site" });
    expect(cross.status).toBe(403);
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(0);
  });

  test("signed out: sign in first, then back to the same window", async () => {
    const { ctx } = await setup();
    const u = await userWithKey(ctx);
    const b = testBrowser(ctx);
    const path = `/save?${q({ url: web.url("/article"), title: "Tides" })}`;
    const first = await b.get(path);
    expect(first.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
    const signedIn = await signInThrough(b, first.location!, u.email);
    expect(signedIn.location).toBe(path);
    expect((await b.get(path)).text).toContain("<h1>Save this page</h1>");
  });

  test("already saved, missing link, bad link, long title: each says so", async () => {
    const { ctx, b, me } = await setup();
    const first = await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: web.url("/article") } });
    const already = await b.get(`/save?${q({ url: web.url("/article") })}`);
    expect(already.location).toBe(`/save/sources/${first.body.id}?already=1`);
    expect((await b.get(already.location!)).text).toContain("Already in your library");

    const missing = await b.get("/save");
    expect(missing.status).toBe(422);
    expect(missing.text).toContain("No link was given.");
    const bad = await b.get(`/save?${q({ url: "not a link" })}`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("the address must be an absolute http or https URL");

    const page = await b.get(`/save?${q({ url: web.url("/notes.txt") })}`);
    const long = await b.post("/save", { ...hiddenFields(page.text, "/save"), title: "x".repeat(501) });
    expect(long.status).toBe(422);
    expect(long.text).toContain('id="s-title-error">The title is longer than 500 characters.');
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(1);
  });
});
