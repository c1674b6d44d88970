// Request limits through the real app: JSON nesting on every JSON operation, declared and streamed
// body sizes, header size, authentication before body checks, and problem+json for every refusal.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../test/helpers.ts";
import { silentLogger } from "../log.ts";
import { exceedsDepth } from "./body.ts";
import { withRequestHandling } from "./request.ts";
import { hiddenFields, signUp as signUpUser, testBrowser } from "../../test/browser-client.ts";

function expectProblem(r: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.body.code).toBe(code);
  expect(r.body.request_id).toBeString();
  expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
}

/** A body streamed in chunks with no Content-Length, as `Transfer-Encoding: chunked` arrives. */
function chunked(text: string, chunkSize = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + chunkSize));
      at += chunkSize;
    },
  });
}

async function send(ctx: TestContext, method: string, path: string, body: BodyInit, headers: Record<string, string>) {
  const res = await ctx.app.handle(
    new Request(`http://localhost${path}`, { method, headers, body, duplex: "half" } as RequestInit),
  );
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Every /api/v1 operation that takes a body, with its path parameters filled in. */
function bodyOperations(ctx: TestContext): { method: string; path: string }[] {
  return ctx.app
    .routes()
    .filter((r) => r.path.startsWith("/api/v1/") && ["POST", "PUT", "PATCH"].includes(r.method))
    .map((r) => ({ method: r.method, path: r.path.replace(/:[a-z_]+/g, "x_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX") }));
}

describe("JSON nesting depth", () => {
  test("the depth scan skips strings (brackets and escaped quotes inside them do not count)", () => {
    expect(exceedsDepth('{"a":[1,{"b":2}]}', 3)).toBe(-1);
    expect(exceedsDepth('{"a":[1,{"b":2}]}', 2)).toBe(9);
    expect(exceedsDepth('{"a":[[[1]]]}', 3)).toBe(8);
    expect(exceedsDepth(`{"s":"${"[".repeat(500)}"}`, 2)).toBe(-1);
    expect(exceedsDepth(`{"s":"a\\"[[[[","t":"\\\\"}`, 1)).toBe(-1);
    // An escaped backslash and an escaped quote inside a string; the arrays after it count.
    expect(exceedsDepth(`{"s":"\\\\\\"","t":[[1]]}`, 2)).toBe(18);
  });

  test("a body nested 5,000 levels deep is a 422 problem on every JSON operation, never a 500", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const deep = `{"content":"x","name":"x","query":"x","url":"https://example.com","x":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const ops = bodyOperations(ctx);
    expect(ops.length).toBeGreaterThanOrEqual(18);
    for (const op of ops) {
      const r = await call(ctx, op.method, op.path, {
        key: u.key,
        rawBody: deep,
        headers: { "content-type": "application/json" },
      });
      expectProblem(r, 422, "validation_failed");
      expect(r.body.detail).toBe("The JSON body nests arrays and objects more than 64 levels deep");
      expect(r.body.errors).toEqual([{ path: "body", message: "nests arrays and objects more than 64 levels deep" }]);
    }
  });

  test("MAX_JSON_DEPTH sets the limit; a body exactly at the limit is accepted", async () => {
    const ctx = createTestContext({ MAX_JSON_DEPTH: "16" });
    const u = await userWithKey(ctx);
    // The body, `actions` and the action take three levels; the request body of the action the rest.
    const workflow = (n: number) =>
      `{"name":"w","trigger":{"type":"webhook"},"actions":[{"id":"a","type":"http_request","url":"https://example.com","body":${"[".repeat(n)}${"]".repeat(n)}}]}`;
    const json = { "content-type": "application/json" };
    const ok = await call(ctx, "POST", "/api/v1/workflows", { key: u.key, rawBody: workflow(13), headers: json });
    expect(ok.status).toBe(201);
    const deep = await call(ctx, "POST", "/api/v1/workflows", { key: u.key, rawBody: workflow(14), headers: json });
    expectProblem(deep, 422, "validation_failed");
    expect(deep.body.detail).toContain("more than 16 levels");
  });
});

describe("body size", () => {
  test("a chunked body over MAX_BODY_BYTES is refused while streaming (413), under it is parsed", async () => {
    const ctx = createTestContext({ MAX_BODY_BYTES: "4096" });
    const u = await userWithKey(ctx);
    const headers = { authorization: `Bearer ${u.key}`, "content-type": "application/json" };
    const big = await send(
      ctx,
      "POST",
      "/api/v1/notebooks",
      chunked(JSON.stringify({ name: "n", description: "x".repeat(10_000) }), 1000),
      headers,
    );
    expectProblem(big, 413, "payload_too_large");
    expect(big.body.detail).toBe("The body is larger than the limit of 4096 bytes");
    const small = await send(
      ctx,
      "POST",
      "/api/v1/notebooks",
      chunked(JSON.stringify({ name: "streamed" }), 5),
      headers,
    );
    expect(small.status).toBe(201);
    expect(small.body.name).toBe("streamed");
  });

  test("chunked bodies of the web app, MCP and OAuth are bounded too, and small ones still work", async () => {
    const ctx = createTestContext({ MAX_BODY_BYTES: "4096" });
    const form = { "content-type": "application/x-www-form-urlencoded" };
    // The web app's pages answer with an HTML page rather than problem+json, with the same status.
    const bigForm = await send(ctx, "POST", "/signin", chunked(`email=${"a".repeat(10_000)}`, 1000), form);
    expect(bigForm.status).toBe(413);
    expect(bigForm.headers.get("content-type")).toStartWith("text/html");
    expectProblem(
      await send(ctx, "POST", "/oauth/token", chunked(`code=${"a".repeat(10_000)}`, 1000), form),
      413,
      "payload_too_large",
    );
    const mcp = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    expectProblem(
      await send(ctx, "POST", "/mcp", chunked(`{"x":"${"a".repeat(10_000)}"}`, 1000), mcp),
      413,
      "payload_too_large",
    );
    // A small chunked sign-in form reaches the page (and is judged there: wrong password).
    const b = testBrowser(ctx);
    const page = await b.get("/signin");
    const fields = new URLSearchParams({
      ...hiddenFields(page.text, "/signin"),
      email: "nobody@example.com",
      password: "wrong password",
    }).toString();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const signin = await send(ctx, "POST", "/signin", chunked(fields, 7), { ...form, cookie });
    expect(signin.status).toBe(401);
    expect(signin.text).toContain("<html");
  });

  test("an empty body is no body: 422 naming the body where one is needed, fine where none is", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const empty = { key: u.key, rawBody: "", headers: { "content-type": "application/json" } };
    const nb = await call(ctx, "POST", "/api/v1/notebooks", empty);
    expectProblem(nb, 422, "validation_failed");
    expect(nb.body.errors).toEqual([{ path: "body", message: "must be a JSON object" }]);
    expect((await call(ctx, "POST", "/api/v1/webhook-tokens", empty)).status).toBe(201);
  });
});

/** A multipart body that counts the bytes anyone read from it. */
function countedMultipart(size: number, chunkSize = 1024) {
  const boundary = "----cpboundary";
  const head = new TextEncoder().encode(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="links.txt"\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const bytes = new Uint8Array(size);
  bytes.fill(0x61);
  bytes.set(head, 0);
  bytes.set(tail, size - tail.length);
  const read = { bytes: 0 };
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (at >= size) return c.close();
        const chunk = bytes.slice(at, at + chunkSize);
        at += chunk.length;
        read.bytes += chunk.length;
        c.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, read, type: `multipart/form-data; boundary=${boundary}` };
}

describe("the web upload's larger limit needs a session", () => {
  const env = { MAX_BODY_BYTES: "4096", IMPORT_MAX_BYTES: "1048576" };

  test("signed out, a declared body over MAX_BODY_BYTES is 413 unread", async () => {
    const ctx = createTestContext(env);
    const m = countedMultipart(200_000);
    const res = await send(ctx, "POST", "/settings/import-export", m.body, {
      "content-type": m.type,
      "content-length": "200000",
    });
    expect(res.status).toBe(413);
    expect(m.read.bytes).toBe(0);
  });

  test("signed out, a chunked body is read no further than MAX_BODY_BYTES", async () => {
    const ctx = createTestContext(env);
    const m = countedMultipart(200_000);
    const res = await send(ctx, "POST", "/settings/import-export", m.body, { "content-type": m.type });
    expect(res.status).toBe(413);
    expect(m.read.bytes).toBeLessThanOrEqual(4096 + 2 * 1024);
  });

  test("signed out, a small upload is answered as the page answers anyone signed out", async () => {
    const ctx = createTestContext(env);
    const m = countedMultipart(2000);
    const res = await send(ctx, "POST", "/settings/import-export", m.body, {
      "content-type": m.type,
      "content-length": "2000",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/signin?next=%2Fsettings%2Fimport-export");
  });

  test("signed in (or with a forged cookie), the upload limit is the session's to use", async () => {
    const ctx = createTestContext(env);
    const b = testBrowser(ctx);
    expect((await signUpUser(b, "uploader@example.com")).status).toBe(303);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const signedIn = countedMultipart(200_000);
    const res = await send(ctx, "POST", "/settings/import-export", signedIn.body, {
      "content-type": signedIn.type,
      "content-length": "200000",
      cookie,
    });
    // Read in full, not refused for its size (the form's own check then refuses it: no CSRF field).
    expect(res.status).toBe(403);
    expect(signedIn.read.bytes).toBe(200_000);

    const forged = countedMultipart(200_000);
    const refused = await send(ctx, "POST", "/settings/import-export", forged.body, {
      "content-type": forged.type,
      "content-length": "200000",
      cookie: "cp_session=not-a-session",
    });
    expect(refused.status).toBe(413);
    expect(forged.read.bytes).toBe(0);
  });
});

describe("authentication comes first", () => {
  test("without a key, a wrong content type or an oversized body is a 401 with WWW-Authenticate", async () => {
    const ctx = createTestContext({ MAX_BODY_BYTES: "2048" });
    const text = await call(ctx, "POST", "/api/v1/notebooks", {
      rawBody: "hello",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(text, 401, "unauthorized");
    expect(text.headers.get("www-authenticate")).toBe('Bearer realm="commonplace"');
    const big = await call(ctx, "POST", "/api/v1/notebooks", { body: { name: "x".repeat(5000) } });
    expectProblem(big, 401, "unauthorized");
    expect(big.headers.get("www-authenticate")).toBe('Bearer realm="commonplace"');
    const deep = await call(ctx, "POST", "/api/v1/notebooks", {
      rawBody: `{"x":${"[".repeat(100)}${"]".repeat(100)}}`,
      headers: { "content-type": "application/json" },
    });
    expectProblem(deep, 401, "unauthorized");
  });
});

describe("headers and failures", () => {
  test("headers over MAX_HEADER_BYTES are a 431 problem with a request id", async () => {
    const ctx = createTestContext({ MAX_HEADER_BYTES: "2048" });
    const r = await call(ctx, "GET", "/healthz", { headers: { "x-padding": "p".repeat(3000) } });
    expectProblem(r, 431, "header_fields_too_large");
    expect(r.body.detail).toBe("The request line and headers take more than 2048 bytes");
    expect((await call(ctx, "GET", "/healthz", { headers: { "x-padding": "p".repeat(1000) } })).status).toBe(200);
  });

  test("an error that escapes the app is still a 500 problem with the request id", async () => {
    const handle = withRequestHandling(
      { handle: () => Promise.reject(new RangeError("Maximum call stack size exceeded.")) },
      { logger: silentLogger, limits: { maxBodyBytes: 1024, maxJsonDepth: 64, maxHeaderBytes: 16384 } },
    );
    const res = await handle(new Request("http://localhost/anything", { headers: { "x-request-id": "trace-1" } }));
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-request-id")).toBe("trace-1");
    const body = (await res.json()) as { code: string; request_id: string; detail: string };
    expect(body).toMatchObject({ code: "internal_error", request_id: "trace-1" });
    expect(body.detail).not.toContain("stack");
  });
});
