// safeFetch against a local server: pinning, redirects and their re-checks, limits, timeouts, content types.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FetchError } from "./errors.ts";
import { createFetchPolicy } from "./fetch-policy.ts";
import { createSafeFetch, DEFAULT_USER_AGENT, type SafeFetchOptions } from "./safe-fetch.ts";
import { fakeLookup, startTestServer, type SeenRequest, type TestServer } from "./test-server.ts";

const big = new Uint8Array(2000).fill(65);

function route(req: Request, seen: SeenRequest): Response {
  const url = new URL(req.url);
  const q = url.searchParams;
  switch (url.pathname) {
    case "/ok":
      return new Response("hello", { headers: { "content-type": "text/plain" } });
    case "/echo":
      return Response.json(seen);
    case "/html":
      return new Response("<p>hi</p>", { headers: { "content-type": "text/html; charset=utf-8" } });
    case "/latin1":
      return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
        headers: { "content-type": "text/plain; charset=ISO-8859-1" },
      });
    case "/missing":
      return new Response("<h1>nope</h1>", { status: 404, headers: { "content-type": "text/html" } });
    case "/redirect":
      return new Response(null, {
        status: Number(q.get("status") ?? 302),
        headers: { location: q.get("to") ?? "/ok" },
      });
    case "/chain": {
      const n = Number(q.get("n"));
      return n > 0
        ? new Response(null, { status: 302, headers: { location: `/chain?n=${n - 1}` } })
        : new Response("done");
    }
    case "/slow-first-byte":
      // A server that thinks before its first byte (headers included), then answers at once.
      return Bun.sleep(Number(q.get("ms"))).then(() => new Response("late but whole")) as unknown as Response;
    case "/hang":
      return new Promise<Response>(() => {}) as unknown as Response;
    case "/slow-body":
      return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("partial")) }));
    case "/big":
      return new Response(big, { headers: { "content-type": "text/plain" } });
    case "/big-chunked":
      return new Response(
        new ReadableStream({ start: (c) => (c.enqueue(big.slice(0, 1000)), c.enqueue(big.slice(1000)), c.close()) }),
      );
    case "/endless":
      return new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(16_384)) }));
    default:
      return new Response("not found", { status: 404 });
  }
}

let srv: TestServer;
let P: number;
beforeAll(() => {
  srv = startTestServer(route as (req: Request, seen: SeenRequest) => Response);
  P = srv.port;
});
afterAll(() => srv.stop());

const names = { "app.test": ["127.0.0.1"], "other.test": ["127.0.0.1"], "internal.test": ["10.0.0.1"] };
const base: SafeFetchOptions = {
  policy: createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: ["app.test", "other.test"] }),
  maxBytes: 1_000_000,
  timeoutMs: 5_000,
  connectTimeoutMs: 5_000,
};

function client(over: Partial<SafeFetchOptions> = {}) {
  const dns = fakeLookup(names);
  return { safeFetch: createSafeFetch({ ...base, lookup: dns.lookup, ...over }), asked: dns.asked };
}

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  if (!(err instanceof FetchError)) throw err;
  return err;
}

const seenPaths = () => srv.seen.map((s) => s.path);
const echo = (res: { json(): unknown }) => res.json() as SeenRequest;

describe("connecting", () => {
  test("a name is resolved once and dialled by IP, with its own Host header", async () => {
    const { safeFetch, asked } = client();
    const res = await safeFetch(`http://app.test:${P}/echo?x=1`);
    expect(res.status).toBe(200);
    expect(echo(res)).toMatchObject({ host: `app.test:${P}`, path: "/echo?x=1" });
    expect(echo(res).headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(res.url).toBe(`http://app.test:${P}/echo?x=1`);
    expect(res.redirects).toBe(0);
    expect(asked).toEqual(["app.test"]);
  });

  test("allowPrivateNetwork lets loopback through; non-2xx are returned, not thrown", async () => {
    const safeFetch = createSafeFetch({
      ...base,
      policy: createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: [] }),
    });
    const ok = await safeFetch(`http://127.0.0.1:${P}/ok`);
    expect([ok.status, ok.contentType, ok.text()]).toEqual([200, "text/plain", "hello"]);
    const missing = await safeFetch(`http://localhost:${P}/missing`);
    expect([missing.status, missing.statusText, missing.text()]).toEqual([404, "Not Found", "<h1>nope</h1>"]);
  });

  test("the next address is tried when one refuses the connection", async () => {
    const v4only = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("second") });
    try {
      const lookup = fakeLookup({ "multi.test": ["127.0.0.2", "127.0.0.1"] }).lookup;
      const safeFetch = createSafeFetch({
        ...base,
        policy: createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: ["multi.test"] }),
        lookup,
      });
      expect((await safeFetch(`http://multi.test:${v4only.port}/`)).text()).toBe("second");
    } finally {
      await v4only.stop(true);
    }
  });

  test("a refused connection is network_error", async () => {
    const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = gone.port;
    await gone.stop(true);
    const { safeFetch } = client({ policy: createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: [] }) });
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/`))).code).toBe("network_error");
  });

  test("headers, bodies and credentials are sent as given; the reported URL has no credentials", async () => {
    const { safeFetch } = client();
    const post = echo(
      await safeFetch(`http://app.test:${P}/echo`, {
        method: "post",
        body: new URLSearchParams({ a: "1" }),
        headers: { "User-Agent": "Custom/2", Host: "evil.example" },
      }),
    );
    expect(post).toMatchObject({ method: "POST", body: "a=1", host: `app.test:${P}` });
    expect(post.headers["user-agent"]).toBe("Custom/2");
    expect(post.headers["content-type"]).toStartWith("application/x-www-form-urlencoded");
    const bytes = echo(
      await safeFetch(`http://app.test:${P}/echo`, { method: "PUT", body: new TextEncoder().encode("raw") }),
    );
    expect(bytes).toMatchObject({ method: "PUT", body: "raw" });
    const creds = await safeFetch(`http://user:p%40ss@app.test:${P}/echo`);
    expect(echo(creds).headers.authorization).toBe(`Basic ${btoa("user:p@ss")}`);
    expect(creds.url).toBe(`http://app.test:${P}/echo`);
  });

  test("text() honours the charset, json() parses, HEAD has no body", async () => {
    const { safeFetch } = client();
    expect((await safeFetch(`http://app.test:${P}/latin1`)).text()).toBe("café");
    expect(echo(await safeFetch(`http://app.test:${P}/echo`)).method).toBe("GET");
    const head = await safeFetch(`http://app.test:${P}/big`, { method: "HEAD", maxBytes: 10 });
    expect([head.status, head.body.byteLength]).toEqual([200, 0]);
  });
});

describe("redirects", () => {
  const redirect = (to: string, status = 302) =>
    `http://app.test:${P}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  test("five redirects are followed; the sixth is too_many_redirects", async () => {
    const { safeFetch } = client();
    const res = await safeFetch(`http://app.test:${P}/chain?n=5`);
    expect([res.text(), res.redirects, res.url]).toEqual(["done", 5, `http://app.test:${P}/chain?n=0`]);
    const before = srv.seen.length;
    const err = await failure(safeFetch(`http://app.test:${P}/chain?n=6`));
    expect(err.code).toBe("too_many_redirects");
    expect(srv.seen.length - before).toBe(6);
  });

  test("followRedirects: false returns the redirect itself", async () => {
    const res = await client().safeFetch(redirect("/ok", 301), { followRedirects: false });
    expect([res.status, res.redirects, res.headers.get("location")]).toEqual([301, 0, "/ok"]);
  });

  test("every hop is re-checked: an allowed host cannot redirect to a private one", async () => {
    const { safeFetch } = client();
    for (const to of [
      `http://127.0.0.1:${P}/secret`,
      `http://[::1]:${P}/secret`,
      `http://localhost:${P}/secret`,
      `http://internal.test:${P}/secret`,
      "http://169.254.169.254/secret",
    ]) {
      const err = await failure(safeFetch(redirect(to)));
      expect({ to, code: err.code }).toEqual({ to, code: "blocked_address" });
    }
    expect(seenPaths().filter((p) => p.startsWith("/secret"))).toEqual([]);
  });

  test("a redirect to another scheme or a broken URL is refused", async () => {
    const { safeFetch } = client();
    expect((await failure(safeFetch(redirect("file:///etc/passwd")))).code).toBe("unsupported_protocol");
    expect((await failure(safeFetch(redirect("http://[::1")))).code).toBe("invalid_url");
  });

  test("a relative Location resolves against the host name, not the dialled IP", async () => {
    const res = await client().safeFetch(redirect("/echo?rel=1"));
    expect(echo(res).host).toBe(`app.test:${P}`);
    expect(res.url).toBe(`http://app.test:${P}/echo?rel=1`);
  });

  test("Authorization and Cookie are dropped on a cross-origin redirect, kept on a same-origin one", async () => {
    const { safeFetch } = client();
    const headers = { Authorization: "Bearer secret", Cookie: "sid=1", "X-Trace": "t" };
    const cross = echo(await safeFetch(redirect(`http://other.test:${P}/echo`), { headers }));
    expect(cross.host).toBe(`other.test:${P}`);
    expect([cross.headers.authorization, cross.headers.cookie, cross.headers["x-trace"]]).toEqual([
      undefined,
      undefined,
      "t",
    ]);
    const same = echo(await safeFetch(redirect("/echo"), { headers }));
    expect([same.headers.authorization, same.headers.cookie]).toEqual(["Bearer secret", "sid=1"]);
  });

  test("303, and 301/302 after POST, switch to GET without a body; 307 and 308 keep both", async () => {
    const { safeFetch } = client();
    const send = (status: number, method: string) =>
      safeFetch(redirect("/echo", status), { method, body: "payload", headers: { "Content-Type": "text/plain" } }).then(
        echo,
      );
    for (const [status, method, expected] of [
      [303, "PUT", "GET"],
      [302, "POST", "GET"],
      [301, "POST", "GET"],
    ] as const) {
      const seen = await send(status, method);
      expect({ status, method: seen.method, body: seen.body, type: seen.headers["content-type"] }).toEqual({
        status,
        method: expected,
        body: "",
        type: undefined,
      });
    }
    for (const [status, method] of [
      [307, "POST"],
      [308, "PUT"],
      [301, "PUT"],
    ] as const) {
      const seen = await send(status, method);
      expect({ status, method: seen.method, body: seen.body }).toEqual({ status, method, body: "payload" });
    }
  });
});

describe("limits", () => {
  test.each(["/big", "/big-chunked", "/endless"])("%s over maxBytes is too_large", async (path) => {
    const err = await failure(client().safeFetch(`http://app.test:${P}${path}`, { maxBytes: 1000 }));
    expect(err.code).toBe("too_large");
  });

  test("a body at or under the limit is returned whole (config default and per call)", async () => {
    expect((await client({ maxBytes: 2000 }).safeFetch(`http://app.test:${P}/big-chunked`)).body.byteLength).toBe(2000);
    expect((await client({ maxBytes: 10 }).safeFetch(`http://app.test:${P}/big`, { maxBytes: 2000 })).body).toEqual(
      big,
    );
  });

  const named = { timeoutMs: "FETCH_TIMEOUT_MS", connectTimeoutMs: "FETCH_CONNECT_TIMEOUT_MS" };

  test("a first byte late but within the whole-call limit is waited for, however short the connect limit", async () => {
    // Scaled down from a site answering after 8 s with FETCH_TIMEOUT_MS 15 s and FETCH_CONNECT_TIMEOUT_MS 5 s.
    const { safeFetch } = client({ timeoutMs: 1_500, connectTimeoutMs: 300, limitNames: named });
    const res = await safeFetch(`http://app.test:${P}/slow-first-byte?ms=800`);
    expect([res.status, res.text()]).toEqual([200, "late but whole"]);
  });

  test("no first byte, or no end of the body, within the whole-call limit is timeout naming that limit", async () => {
    const { safeFetch } = client({ timeoutMs: 300, connectTimeoutMs: 100, limitNames: named });
    const silent = await failure(safeFetch(`http://app.test:${P}/hang`));
    expect([silent.code, silent.message]).toEqual([
      "timeout",
      `no response from app.test:${P} within 300 ms (FETCH_TIMEOUT_MS)`,
    ]);
    const partial = await failure(safeFetch(`http://app.test:${P}/slow-body`));
    expect([partial.code, partial.message]).toEqual([
      "timeout",
      `the response from app.test:${P} did not finish within 300 ms (FETCH_TIMEOUT_MS)`,
    ]);
    // A limit the caller chose is not the setting's: the error gives the amount only.
    const own = await failure(safeFetch(`http://app.test:${P}/hang`, { timeoutMs: 1_200 }));
    expect(own.message).toBe(`no response from app.test:${P} within 1.2 s`);
  }, 60_000);

  test("a hanging DNS lookup is bounded by the connect timeout, named in the error", async () => {
    const safeFetch = createSafeFetch({
      ...base,
      connectTimeoutMs: 100,
      limitNames: named,
      lookup: () => new Promise(() => {}),
    });
    const err = await failure(safeFetch("http://slow-dns.test/"));
    expect([err.code, err.message]).toEqual([
      "connect_timeout",
      "could not look up slow-dns.test within 100 ms (FETCH_CONNECT_TIMEOUT_MS)",
    ]);
  });

  test("the caller's signal aborts with the caller's reason", async () => {
    const controller = new AbortController();
    const pending = client().safeFetch(`http://app.test:${P}/hang`, { signal: controller.signal });
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toThrow("user cancelled");
  });
});

describe("content types", () => {
  test("a 2xx outside the allow-list is unsupported_content_type", async () => {
    const err = await failure(client().safeFetch(`http://app.test:${P}/html`, { accept: ["application/json"] }));
    expect(err.code).toBe("unsupported_content_type");
    expect(err.message).toBe('expected application/json, got "text/html"');
  });

  test("exact types and wildcards match the type without parameters; error statuses are not checked", async () => {
    const { safeFetch } = client();
    expect((await safeFetch(`http://app.test:${P}/html`, { accept: ["text/html"] })).contentType).toBe("text/html");
    expect((await safeFetch(`http://app.test:${P}/html`, { accept: ["application/pdf", "TEXT/*"] })).status).toBe(200);
    expect((await safeFetch(`http://app.test:${P}/missing`, { accept: ["application/json"] })).status).toBe(404);
  });
});
