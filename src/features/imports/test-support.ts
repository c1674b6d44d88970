// Test helpers for imports: upload a file as multipart, and run the import job to its end.
import { call, type TestContext } from "../../../test/helpers.ts";
import { IMPORT_JOB } from "./service.ts";

export async function upload(
  ctx: TestContext,
  key: string,
  file: Uint8Array<ArrayBuffer> | string,
  opts: { format?: string; filename?: string } = {},
) {
  const form = new FormData();
  form.set("file", new File([file], opts.filename ?? "upload.bin"));
  if (opts.format) form.set("format", opts.format);
  const res = new Response(form);
  const type = res.headers.get("content-type") ?? "";
  const body = new Uint8Array(await res.arrayBuffer());
  return call(ctx, "POST", "/api/v1/imports", {
    key,
    rawBody: body,
    headers: { "content-type": type, "content-length": String(body.byteLength) },
  });
}

export const fixture = (name: string) => Bun.file(new URL(`../../../test/fixtures/imports/${name}`, import.meta.url));

/** Runs only the import job (not the ingestion it queues), as the runner would. */
export async function runImports(ctx: TestContext): Promise<void> {
  for (;;) {
    const jobs = await ctx.queue.claim("test", 10, 60_000, [IMPORT_JOB.type]);
    if (jobs.length === 0) return;
    for (const j of jobs) {
      await ctx.services.imports.run((j.payload as { import_id: string }).import_id);
      await ctx.queue.complete(j.id);
    }
  }
}
