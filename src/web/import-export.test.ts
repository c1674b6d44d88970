// Settings → Import and export in the browser: upload with CSRF, progress and problems, exports, isolation.
import { expect, test } from "bun:test";
import { createTestContext } from "../../test/helpers.ts";
import { runImports } from "../features/imports/test-support.ts";
import { hiddenFields, signUp, testBrowser, type TestBrowser } from "../../test/browser-client.ts";

async function postFile(
  ctx: { app: { handle(r: Request): Response | Promise<Response> } },
  b: TestBrowser,
  fields: Record<string, string>,
  file: string,
  name = "links.txt",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([file], name));
  const body = new Response(form);
  const type = body.headers.get("content-type")!;
  const bytes = new Uint8Array(await body.arrayBuffer());
  const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await ctx.app.handle(
    new Request("http://localhost/settings/import-export", {
      method: "POST",
      headers: { cookie, "content-type": type, "content-length": String(bytes.byteLength) },
      body: bytes,
    }),
  );
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

test("upload a file, follow its progress and problems, download both exports; others see nothing", async () => {
  const ctx = createTestContext();
  const b = testBrowser(ctx);
  await signUp(b, "reader@example.com");
  const page = await b.get("/settings/import-export");
  expect(page.status).toBe(200);
  expect(page.text).toContain('enctype="multipart/form-data"');
  expect((await b.get("/settings")).text).toContain('href="/settings/import-export"');
  const csrf = hiddenFields(page.text, "/settings/import-export");

  const res = await postFile(
    ctx,
    b,
    { ...csrf, format: "auto" },
    "https://example.com/a\njavascript:alert(1)\nhttps://example.com/b?utm_source=x\n",
    "my <links>.txt",
  );
  expect(res.status).toBe(303);
  const detailPath = res.location!;
  expect(detailPath).toMatch(/^\/settings\/import-export\/imp_/);
  const queued = await b.get(detailPath);
  // Without script the page reloads itself while the import runs; with it, the live region updates in place.
  expect(queued.headers.get("refresh")).toBeNull();
  expect(queued.text).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
  const id = detailPath.split("/").pop()!;
  expect(queued.text).toContain(
    `data-live="import" data-live-id="${id}" data-live-fragment="${detailPath}/live" data-live-since=`,
  );
  expect(queued.text).toContain('data-live-also="source"');
  expect(queued.text).toContain("my &lt;links&gt;.txt");
  await runImports(ctx);
  const done = await b.get(detailPath);
  // Its two pages still wait to be fetched: the page keeps following them.
  expect(done.text).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
  expect(done.text).toContain("0 ready, 0 failed, 2 waiting");
  const fragment = await b.get(`${detailPath}/live`);
  expect(fragment.text.startsWith(`<div class="import-live" data-live="import" data-live-id="${id}"`)).toBe(true);
  expect(fragment.text).toContain("2 new");
  expect(fragment.text).toContain('data-live-announce="Import succeeded: 3 of 3 entries, 2 pages waiting."');
  expect(fragment.text).not.toContain("<html");
  const row = await b.get(`${detailPath}/live?part=row`);
  expect(row.text.startsWith(`<tr data-live="import" data-live-id="${id}"`)).toBe(true);
  expect(done.text).toContain("succeeded");
  expect(done.text).toContain("2 new");
  expect(done.text).toContain("javascript: links are not saved");

  const json = await b.get("/settings/import-export/export.json");
  expect(json.headers.get("content-disposition")).toContain("attachment");
  expect(JSON.parse(json.text).sources.length).toBe(2);
  const htmlExport = await b.get("/settings/import-export/export.html");
  expect(htmlExport.text).toContain('<A HREF="https://example.com/a"');

  // Without the CSRF token: refused, nothing queued.
  const forged = await postFile(ctx, b, { format: "auto" }, "https://example.com/c\n");
  expect(forged.status).toBe(403);
  // A file that is not what it says: the page again with the reason, 422.
  const wrong = await postFile(ctx, b, { ...csrf, format: "karakeep" }, "not json");
  expect(wrong.status).toBe(422);
  expect(wrong.text).toContain("not valid JSON");

  const other = testBrowser(ctx);
  await signUp(other, "other@example.com");
  expect((await other.get(detailPath)).status).toBe(404);
  expect((await other.get("/settings/import-export")).text).not.toContain("my &lt;links&gt;.txt");
  expect((await testBrowser(ctx).get("/settings/import-export")).location).toBe(
    `/signin?next=${encodeURIComponent("/settings/import-export")}`,
  );
});
