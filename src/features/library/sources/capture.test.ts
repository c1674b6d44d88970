// Pages captured by the browser: POST /api/v1/sources with `html` is extracted from that HTML through the
// extraction pool, never fetched, recorded as `capture: "browser"`, and replaced by a later capture.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { startOutsideWeb } from "../../../../test/outside-web.ts";
import { sqlRows } from "../../../db/inspect.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

// TEST-NET-1: nothing answers there, so a fetch could only fail (and the SSRF guard refuses it anyway).
const UNREACHABLE = "http://192.0.2.1/article";

const page = (
  title: string,
  paragraphs: string[],
) => `<!doctype html><html lang="en"><head><title>${title}</title></head>
<body><nav><a href="/">Home</a> <a href="/account">My account</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}</article></main>
<footer>All rights reserved.</footer></body></html>`;

const LIGHTHOUSE = page("Keepers of the northern light", [
  "The lighthouse keepers of the northern coast trimmed their wicks every four hours through the winter nights, logging each passing ship by lamplight.",
  "When the lenses were automated the keepers left, but their logbooks stayed behind, a record of storms, wrecks and the slow turn of the seasons on the headland.",
]);

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  return { ctx, u: await userWithKey(ctx) };
}

async function save(ctx: Awaited<ReturnType<typeof setup>>["ctx"], key: string, body: Record<string, unknown>) {
  return call(ctx, "POST", "/api/v1/sources", { key, body });
}

async function read(ctx: Awaited<ReturnType<typeof setup>>["ctx"], key: string, id: string) {
  return (await call(ctx, "GET", `/api/v1/sources/${id}?include=content`, { key })).body;
}

describe("POST /api/v1/sources with html", () => {
  test("is extracted from the given HTML without any fetch, and recorded as a browser capture", async () => {
    const { ctx, u } = await setup();
    const created = await save(ctx, u.key, { url: UNREACHABLE, html: LIGHTHOUSE });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "pending", capture: "server" });
    await ctx.runner.drain();
    const source = await read(ctx, u.key, created.body.id);
    expect(source).toMatchObject({
      status: "ready",
      capture: "browser",
      title: "Keepers of the northern light",
      final_url: UNREACHABLE,
      content_type: "text/html",
      error: null,
    });
    expect(source.content).toContain("trimmed their wicks every four hours");
    expect(source.content).not.toContain("My account");
    // The HTML waited in its own table and is gone once extracted.
    expect(await sqlRows(ctx.db, "SELECT source_id FROM source_captures")).toEqual([]);
  });

  test("an article that exists only in the browser's HTML is kept, and the server's page is never asked for", async () => {
    const { ctx, u } = await setup({ ALLOW_PRIVATE_NETWORK: "true" });
    // The server would get "not found" here: only the signed-in browser sees the article.
    const url = web.url("/members-only/essay");
    const html = page("Notes from the members' lounge", [
      "Only members who signed in can read this essay about the quiet craft of bookbinding, stitched by hand signature by signature.",
      "The binder folds each sheet twice, presses the stack overnight and sews it to linen tapes before the cover goes on.",
    ]);
    const created = await save(ctx, u.key, { url, html, title: "Bookbinding" });
    await ctx.runner.drain();
    const source = await read(ctx, u.key, created.body.id);
    expect(source).toMatchObject({ status: "ready", capture: "browser", title: "Bookbinding" });
    expect(source.content).toContain("stitched by hand signature by signature");
    expect(web.hits.get("/members-only/essay")).toBeUndefined();
  });

  test("a save without html is still fetched by the server", async () => {
    const { ctx, u } = await setup({ ALLOW_PRIVATE_NETWORK: "true" });
    const created = await save(ctx, u.key, { url: web.url("/article") });
    await ctx.runner.drain();
    expect(await read(ctx, u.key, created.body.id)).toMatchObject({ status: "ready", capture: "server" });
  });

  test("html over CAPTURE_MAX_HTML_BYTES is refused naming html and the limit; nothing is saved", async () => {
    const { ctx, u } = await setup({ CAPTURE_MAX_HTML_BYTES: "4096", MAX_BODY_BYTES: "4096" });
    // Within the body limit but over the html limit: 422 from validation.
    const over = await save(ctx, u.key, { url: UNREACHABLE, html: `<p>${"é".repeat(2100)}</p>` });
    expect(over.status).toBe(422);
    expect(over.headers.get("content-type")).toContain("application/problem+json");
    expect(over.body.errors[0].path).toBe("html");
    expect(over.body.errors[0].message).toContain("4096");
    // Past what the route reads at all: 413, still naming html.
    const huge = await save(ctx, u.key, { url: UNREACHABLE, html: "x".repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.headers.get("content-type")).toContain("application/problem+json");
    expect(huge.body.errors).toEqual([{ path: "html", message: expect.stringContaining("4096") }]);
    const empty = await save(ctx, u.key, { url: UNREACHABLE, html: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].path).toBe("html");
    expect(await sqlRows(ctx.db, "SELECT id FROM sources")).toEqual([]);
  });

  test("the default limit admits a page of a few MiB (the JSON body limit is raised for it)", async () => {
    const { ctx, u } = await setup();
    const filler = `<div class="related">${"<p>related link</p>".repeat(150_000)}</div>`; // ~2.8 MB, over MAX_BODY_BYTES
    const html = LIGHTHOUSE.replace("</footer>", `</footer>${filler}`);
    const created = await save(ctx, u.key, { url: UNREACHABLE, html });
    expect(created.status).toBe(201);
  });

  test("saving the URL again with new html replaces the content, and search finds the new text only", async () => {
    const { ctx, u } = await setup();
    const first = await save(ctx, u.key, { url: UNREACHABLE, html: LIGHTHOUSE });
    await ctx.runner.drain();
    const updated = page("Keepers of the northern light", [
      "Updated edition: the keepers also kept honeybees in walled gardens behind the tower, sheltered from the salt wind.",
      "Their hives produced a dark heather honey that was traded with passing fishing boats every autumn.",
    ]);
    const again = await save(ctx, u.key, { url: `${UNREACHABLE}?utm_source=newsletter`, html: updated });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, status: "pending" });
    await ctx.runner.drain();
    const source = await read(ctx, u.key, first.body.id);
    expect(source).toMatchObject({ status: "ready", capture: "browser" });
    expect(source.content).toContain("heather honey");
    expect(source.content).not.toContain("trimmed their wicks");
    const search = async (query: string) =>
      (await call(ctx, "POST", "/api/v1/search", { key: u.key, body: { query } })).body.data.map(
        (h: { id: string }) => h.id,
      );
    expect(await search("heather honey")).toEqual([first.body.id]);
    expect(await search("wicks")).toEqual([]);
  });

  test("other users' sources are untouched: the same URL is a separate source per owner", async () => {
    const { ctx, u } = await setup();
    const other = await userWithKey(ctx);
    const mine = await save(ctx, u.key, { url: UNREACHABLE, html: LIGHTHOUSE });
    const theirs = await save(ctx, other.key, {
      url: UNREACHABLE,
      html: page("Other", ["Something else entirely about tea."]),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});
