// Notes in the web app: write, view rendered, edit, download, delete; hostile Markdown stays inert.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { idIn, post, setup } from "./test-helpers.ts";

const HOSTILE = [
  "# Plan",
  "",
  "<script>alert('owned')</script>",
  "",
  "[x](javascript:alert(1)) and [y](JAVASCRIPT:alert(2)) and <javascript:alert(3)>",
  "",
  "<img src=x onerror=alert(4)> ![pic](javascript:alert(5)) ![web](https://img.example/a.png)",
  "",
  '<a href="javascript:alert(6)" onclick="alert(7)">raw link</a> [ok](https://example.com/a?b=1&c=2)',
].join("\n");

describe("notes", () => {
  test("write a note, see it rendered, edit it, and find it in the list", async () => {
    const { ctx, b, me } = await setup();
    const nbId = idIn((await post(ctx, b, "/notebooks", { name: "Trips" })).location!, "nb");
    const form = await b.get(`/notes/new?notebook=${nbId}`);
    expect(form.text).toContain(`<option value="${nbId}" selected>Trips</option>`);

    const created = await post(ctx, b, "/notes", {
      title: "",
      content: "# Packing\r\n\r\n- **water**\r\n- map",
      notebook_id: nbId,
    });
    expect(created.status).toBe(303);
    const id = idIn(created.location!, "note");
    expect(created.location).toBe(`/notes/${id}?notice=created`);
    const view = await b.get(created.location!);
    expect(view.text).toContain("<h1>Packing</h1>");
    expect(view.text).toContain("<li><strong>water</strong></li>");
    expect(view.text).toContain(`In <a href="/notebooks/${nbId}">Trips</a>`);
    expect(view.text).toContain('name="content" required>\n# Packing\n\n- **water**\n- map</textarea>');
    expect((await call(ctx, "GET", `/api/v1/notes/${id}`, { key: me.key })).body).toMatchObject({
      content: "# Packing\n\n- **water**\n- map",
      notebook_id: nbId,
      title: null,
    });

    const saved = await post(ctx, b, `/notes/${id}`, {
      title: "Gear",
      content: "Boots </textarea> too",
      notebook_id: "",
    });
    expect(saved.location).toBe(`/notes/${id}?notice=saved`);
    const after = await b.get(saved.location!);
    expect(after.text).toContain("<h1>Gear</h1>");
    expect(after.text).toContain("Boots &lt;/textarea&gt; too</textarea>");
    expect((await call(ctx, "GET", `/api/v1/notes/${id}`, { key: me.key })).body).toMatchObject({
      title: "Gear",
      notebook_id: null,
    });

    const list = await b.get("/notes");
    expect(list.text).toContain(`<a class="title" href="/notes/${id}">Gear</a>`);
    expect((await b.get(`/notes?notebook=${nbId}`)).text).toContain("No notes in this notebook.");
  });

  test("empty content or a foreign notebook is refused with the input kept", async () => {
    const { ctx, b, me } = await setup();
    const empty = await post(ctx, b, "/notes", { title: "T <1>", content: "  \r\n " });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain("Write something first.");
    expect(empty.text).toContain('value="T &lt;1&gt;"');
    const other = await setup();
    const theirs = idIn((await post(other.ctx, other.b, "/notebooks", { name: "x" })).location!, "nb");
    const foreign = await post(ctx, b, "/notes", { content: "hi", notebook_id: theirs });
    expect(foreign.status).toBe(422);
    expect(foreign.text).toContain("Choose a notebook from the list.");
    expect((await call(ctx, "GET", "/api/v1/notes", { key: me.key })).body.data).toHaveLength(0);
  });

  test("hostile Markdown renders inert: no script, no event handlers, no javascript: URLs", async () => {
    const { ctx, b } = await setup();
    const id = idIn((await post(ctx, b, "/notes", { content: HOSTILE })).location!, "note");
    const view = await b.get(`/notes/${id}`);
    const article = view.text.slice(view.text.indexOf('<article class="prose card">'), view.text.indexOf("</article>"));
    expect(article).toContain("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;");
    expect(article).toContain("&lt;img src=x onerror=alert(4)&gt;");
    // Markup that is real (not escaped text): no handlers, no script URLs anywhere in a tag.
    const realTags = [...article.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
    for (const tag of realTags) expect(tag).not.toMatch(/\son\w+=|javascript:|<script/i);
    // An image on another host is never loaded: its alt text stands in for it.
    expect(article).not.toContain("img.example");
    expect(article).not.toContain("<img");
    expect(article).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">ok</a>');
    // Every tag in the rendered note is one the renderer is allowed to produce.
    const tags = new Set([...article.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]));
    for (const t of tags) expect(["article", "h1", "p", "a"]).toContain(t!);
    // The page's only script is the app's own, allowed by hash.
    expect(view.text.match(/<script>/g)).toHaveLength(1);
    expect(view.headers.get("content-security-policy")).toContain("script-src 'sha256-");
  });

  test("download returns the Markdown as an attachment", async () => {
    const { ctx, b } = await setup();
    const id = idIn((await post(ctx, b, "/notes", { content: "# Field notes\n\nOtters <3" })).location!, "note");
    const res = await ctx.app.handle(
      new Request(`http://localhost/notes/${id}/download`, {
        headers: { cookie: `cp_session=${b.jar.get("cp_session")}` },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain('attachment; filename="field-notes.md"');
    expect(await res.text()).toBe("# Field notes\n\nOtters <3");
  });

  test("delete asks first, then removes the note", async () => {
    const { ctx, b, me } = await setup();
    const id = idIn((await post(ctx, b, "/notes", { content: "bye", title: "Old" })).location!, "note");
    const confirm = await b.get(`/notes/${id}/delete`);
    expect(confirm.text).toContain("Delete this note?");
    expect(confirm.text).toContain("<strong>Old</strong>");
    const gone = await post(ctx, b, `/notes/${id}/delete`);
    expect(gone.location).toBe("/notes?notice=deleted");
    expect((await b.get("/notes?notice=deleted")).text).toContain("The note was deleted.");
    expect((await call(ctx, "GET", `/api/v1/notes/${id}`, { key: me.key })).status).toBe(404);
    expect((await b.get(`/notes/${id}`)).status).toBe(404);
  });
});
