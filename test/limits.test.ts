// Bun's own limits never answer first: the server started as `bun run start` starts it answers
// oversized bodies (declared or chunked) and oversized headers with problem+json and a request id.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, tempDir, ROOT, type ServerProcess } from "./server-process.ts";

let server: ServerProcess;
const data = tempDir("commonplace-limits-");

beforeAll(async () => {
  // The start script's own command line, so its runtime flags are the ones under test.
  // (The script first packs the browser extension when it is missing: the server is its last command.)
  const script = ((await Bun.file(`${ROOT}/package.json`).json()) as { scripts: { start: string } }).scripts.start
    .split("&&")
    .at(-1)!
    .trim()
    .split(" ");
  expect(script[0]).toBe("bun");
  // Small limits keep the bodies small: the server's old Bun limit was twice the larger of the two.
  server = await startServer([process.execPath, ...script.slice(1)], {
    DATA_DIR: data.path,
    MAX_BODY_BYTES: "4096",
    WEBHOOK_MAX_BYTES: "4096",
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  data.remove();
});

async function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const id = res.headers.get("x-request-id");
  expect(id).toMatch(/^req_[0-9a-f]{32}$/);
  const body = (await res.json()) as { code: string; request_id: string };
  expect(body.code).toBe(code);
  expect(body.request_id).toBe(id!);
}

describe("limits of the running server", () => {
  test("a body declared larger than any limit is a 413 problem, not Bun's empty 413", async () => {
    const res = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a".repeat(20_000),
    });
    await expectProblem(res, 413, "payload_too_large");
  }, 30_000);

  test("a chunked body over MAX_BODY_BYTES is cut while streaming: a 413 problem", async () => {
    const chunk = new TextEncoder().encode("a".repeat(1000));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ === 20) return c.close();
        c.enqueue(chunk);
      },
    });
    const res = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    await expectProblem(res, 413, "payload_too_large");
  }, 30_000);

  test("headers past MAX_HEADER_BYTES (and past Bun's default 16 KiB) are a 431 problem", async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: { "x-padding": "p".repeat(20_000) } });
    await expectProblem(res, 431, "header_fields_too_large");
    expect((await fetch(`${server.url}/healthz`, { headers: { "x-padding": "p".repeat(8_000) } })).status).toBe(200);
  }, 30_000);
});
