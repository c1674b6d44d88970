// The server entry point over real sockets: the Host check, guards that see the router's path, and
// idle timeouts (only an accepted event stream keeps a quiet connection longer).
import { afterEach, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { connect } from "node:net";
import { createTestContext, userWithKey, type TestContext } from "../../test/helpers.ts";
import { signUp, testBrowser } from "../../test/browser-client.ts";
import { silentLogger } from "../log.ts";
import { isValidHost, routerPathOf } from "./path.ts";
import { serveOptions } from "./serve.ts";

interface Running {
  ctx: TestContext;
  port: number;
  stop(): Promise<void>;
}
const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

/** The real app behind the real server options, on a loopback port. */
function serve(env: Record<string, string> = {}): Running {
  const ctx = createTestContext(env);
  const server = Bun.serve({ ...serveOptions(ctx.app, ctx.config, silentLogger), port: 0, hostname: "127.0.0.1" });
  const r = { ctx, port: server.port!, stop: () => server.stop(true) };
  running.push(r);
  return r;
}

/** One raw connection: writes `text`, collects what comes back and when the server closes it. */
function rawSocket(port: number, text: string) {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let notify = () => {};
  const opened = performance.now();
  socket.setEncoding("latin1");
  socket.on("data", (d: string) => {
    received += d;
    notify();
  });
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(performance.now() - opened)));
  socket.on("error", () => {});
  socket.write(text);
  return {
    /** Resolves once the received text satisfies `done`. */
    until(done: (s: string) => boolean): Promise<string> {
      return new Promise((resolve, reject) => {
        void closed.then(() => (done(received) ? resolve(received) : reject(new Error(`closed; got ${received}`))));
        notify = () => done(received) && resolve(received);
        notify();
      });
    },
    /** The close, or "open" when the server has not closed the connection within `ms`. */
    closedWithin(ms: number): Promise<number | "open"> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<"open">((resolve) => (timer = setTimeout(() => resolve("open"), ms)));
      return Promise.race([closed, deadline]).finally(() => clearTimeout(timer));
    },
    end: () => socket.destroy(),
  };
}

const headEnd = (s: string) => s.includes("\r\n\r\n");
/** A whole response with Content-Length (the head and that many bytes). */
function complete(s: string): boolean {
  const at = s.indexOf("\r\n\r\n");
  if (at < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(s.slice(0, at));
  return length !== null && s.length - at - 4 >= Number(length[1]);
}
const statusOf = (s: string) => Number(s.slice(9, 12));
const bodyOf = (s: string) => JSON.parse(s.slice(s.indexOf("\r\n\r\n") + 4));

describe("the path guards judge is the path the router matches", () => {
  test("routerPathOf gives the path Elysia routes by, for short and long hosts alike", async () => {
    const app = new Elysia().get("/*", ({ path }) => path);
    for (const url of [
      "http://ab/ab/api/v1/sources",
      "http://a/x/api/v1/sources?q=/y",
      "http://abc/x/api/v1/sources",
      "http://abcd/x/api/v1/sources",
      "http://localhost:3000/api/v1/sources?limit=1",
      "http://[::1]:3000/settings/import-export",
      "http://ab/signin",
      "https://a/b/c",
    ]) {
      expect(routerPathOf(url)).toBe(await (await app.handle(new Request(url))).text());
    }
  });

  test("with a 2-character Host, /ab/api/v1/… is routed to the API and its key check applies", async () => {
    const { ctx, port } = serve();
    const { key } = await userWithKey(ctx);
    const anonymous = rawSocket(port, "GET /ab/api/v1/sources HTTP/1.1\r\nHost: ab\r\n\r\n");
    const refused = await anonymous.until(complete);
    anonymous.end();
    expect(statusOf(refused)).toBe(401);
    // The bearer check's answer, not a handler's fallback: it names the scheme and the realm.
    expect(refused).toMatch(/\r\nwww-authenticate: Bearer realm="commonplace"/i);
    expect(refused).toMatch(/\r\ncontent-type: application\/problem\+json/i);

    const withKey = rawSocket(
      port,
      `GET /ab/api/v1/sources HTTP/1.1\r\nHost: ab\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    const listed = await withKey.until(complete);
    withKey.end();
    expect(statusOf(listed)).toBe(200);
    expect(bodyOf(listed).data).toEqual([]);
  });

  test("the JSON guard applies there too: a text body is 415 before any handler", async () => {
    const { ctx, port } = serve();
    const { key } = await userWithKey(ctx);
    const body = "not json";
    const s = rawSocket(
      port,
      `POST /ab/api/v1/notes HTTP/1.1\r\nHost: ab\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const res = await s.until(complete);
    s.end();
    expect(statusOf(res)).toBe(415);
    expect(bodyOf(res).code).toBe("unsupported_media_type");
  });
});

describe("Host header", () => {
  test("RFC 3986 hosts with an optional port pass; anything else does not", () => {
    for (const ok of [
      "localhost",
      "ab",
      "a",
      "127.0.0.1:3000",
      "[::1]",
      "[::1]:3000",
      "my-host.example.com:",
      "x%41y",
      "a_b~c",
    ])
      expect([ok, isValidHost(ok)]).toEqual([ok, true]);
    for (const bad of [
      null,
      "",
      " ",
      "a b",
      "x/y",
      "a, b",
      "a:b",
      "[zz]",
      "[::1",
      "::1",
      "a@b",
      "a\\b",
      "%4",
      "[v1.x]",
    ])
      expect([bad, isValidHost(bad)]).toEqual([bad, false]);
  });

  for (const [name, head] of [
    ["an empty Host", "GET /signin HTTP/1.1\r\nHost: \r\n\r\n"],
    ["a Host with a space", "GET /signin HTTP/1.1\r\nHost: a b\r\n\r\n"],
    ["a Host with a slash", "GET /api/v1/sources HTTP/1.1\r\nHost: x/y\r\n\r\n"],
    ["two Host headers", "GET /signin HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"],
    ["a bad IPv6 literal", "GET /signin HTTP/1.1\r\nHost: [zz]:80\r\n\r\n"],
    ["no Host on HTTP/1.0", "GET /signin HTTP/1.0\r\n\r\n"],
  ] as const) {
    test(`${name} is 400 problem+json`, async () => {
      const { port } = serve();
      const s = rawSocket(port, head);
      const res = await s.until(complete);
      s.end();
      expect(statusOf(res)).toBe(400);
      expect(res).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      const body = bodyOf(res);
      expect(body.code).toBe("bad_request");
      expect(body.detail).toContain("Host");
    });
  }

  test("an IPv6 literal with a port is served", async () => {
    const { port } = serve();
    const s = rawSocket(port, "GET /signin HTTP/1.1\r\nHost: [::1]:3000\r\n\r\n");
    const res = await s.until(complete);
    s.end();
    expect(statusOf(res)).toBe(200);
  });
});

describe("idle timeouts", () => {
  test("unauthenticated stream paths close once idle; an accepted stream outlives the idle timeout", async () => {
    // Bun closes idle connections on a 4-second tick, so a 1 s timeout closes within about 4 s to 8 s.
    // Heartbeats every 4.5 s: the first only arrives because the accepted stream set its own timeout
    // (two heartbeats, 9 s) in place of the server's 1 s.
    const { ctx, port } = serve({ HTTP_IDLE_TIMEOUT_SECONDS: "1", EVENTS_HEARTBEAT_MS: "4500" });
    const { key } = await userWithKey(ctx);
    const stream = rawSocket(
      port,
      `GET /api/v1/events/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    const refused = ["/nothing/events/stream", "/events/stream", "/api/v1/events/stream"].map(async (path) => {
      const s = rawSocket(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      const status = statusOf(await s.until(headEnd));
      const closed = await s.closedWithin(10_000);
      s.end();
      return { path, status, closed: closed === "open" ? "open" : "closed" };
    });
    const heard = await stream.until((t) => t.includes(": heartbeat"));
    expect(statusOf(heard)).toBe(200);
    expect(await Promise.all(refused)).toEqual([
      { path: "/nothing/events/stream", status: 404, closed: "closed" },
      { path: "/events/stream", status: 401, closed: "closed" },
      { path: "/api/v1/events/stream", status: 401, closed: "closed" },
    ]);
    stream.end();
  }, 20_000);

  test("only an accepted stream asks for a longer timeout, and a finite one", async () => {
    const ctx = createTestContext({ EVENTS_HEARTBEAT_MS: "15000" });
    const { key } = await userWithKey(ctx);
    const opts = serveOptions(ctx.app, ctx.config, silentLogger);
    const asked: number[] = [];
    const server = {
      requestIP: () => ({ address: "127.0.0.1" }),
      timeout: (_r: Request, s: number) => void asked.push(s),
    };
    const get = (path: string, headers: Record<string, string> = {}) =>
      opts.fetch(new Request(`http://localhost${path}`, { headers: { host: "localhost", ...headers } }), server);

    for (const path of ["/nothing/events/stream", "/events/stream", "/api/v1/events/stream"]) {
      const res = await get(path);
      await res.body?.cancel();
      expect([path, asked]).toEqual([path, []]);
    }
    const stream = await get("/api/v1/events/stream", { authorization: `Bearer ${key}` });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    expect(asked).toEqual([30]);

    // The web app's stream, once its session is accepted.
    const b = testBrowser(ctx);
    expect((await signUp(b, "reader@example.com")).status).toBe(303);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const page = await get("/events/stream", { cookie });
    expect(page.status).toBe(200);
    await page.body?.cancel();
    expect(asked).toEqual([30, 30]);
  });
});

describe("bodies before authentication, over a real socket", () => {
  test("a signed-out 20 MB upload to the import page is refused (413) before its body is sent", async () => {
    const { port } = serve();
    const s = rawSocket(
      port,
      "POST /settings/import-export HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 20971520\r\n\r\n",
    );
    const res = await s.until(complete);
    s.end();
    expect(statusOf(res)).toBe(413);
  });
});
