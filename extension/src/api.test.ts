// The extension's API client and save logic against a local stand-in server: how each failure is
// worded (401, 429 with Retry-After, no server), tags, the fallback when a server refuses `html`.
import { afterAll, describe, expect, test } from "bun:test";
import { ApiError, createApi, describeFailure, retryAfterSeconds } from "./api.ts";
import { clientLabel } from "./browser.ts";
import { parseTags, quoteNote, saveSource } from "./capture.ts";
import { normalizeServer, originPattern, sourcePageUrl } from "./settings.ts";

const bodies: Record<string, unknown>[] = [];
let refuseHtml = false;
const stand = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const { pathname } = new URL(req.url);
    if (req.headers.get("authorization") === "Bearer revoked") return new Response("{}", { status: 401 });
    if (pathname === "/api/v1/limited")
      return new Response("{}", { status: 429, headers: { "retry-after": "17", "content-type": "application/json" } });
    if (req.method === "POST" && pathname === "/api/v1/sources") {
      const body = (await req.json()) as Record<string, unknown>;
      bodies.push(body);
      if (refuseHtml && "html" in body)
        return Response.json(
          { status: 422, detail: "Invalid request", errors: [{ path: "html", message: "is not allowed" }] },
          { status: 422 },
        );
      return Response.json({ id: "src_1", url: body.url, tags: ["old"], status: "pending" }, { status: 201 });
    }
    if (req.method === "PATCH") return Response.json({ id: "src_1", tags: ((await req.json()) as any).tags });
    return Response.json({ id: "u", email: "a@example.com", auth: { type: "api_key" } });
  },
});
const server = `http://127.0.0.1:${stand.port}`;
afterAll(() => stand.stop(true));

describe("API failures are worded the same everywhere", () => {
  test("401 calls onUnauthorized and says Disconnected — connect again", async () => {
    let lost = 0;
    const api = createApi({ server, key: "revoked", onUnauthorized: () => void lost++ });
    const err = (await api.me().catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe("Disconnected — connect again");
    expect(lost).toBe(1);
  });

  test("429 says how long to wait from Retry-After", async () => {
    const api = createApi({
      server,
      key: "k",
      fetch: (_u, init) => fetch(`${server}/api/v1/limited`, init),
    });
    const err = (await api.me().catch((e) => e)) as ApiError;
    expect(err.message).toBe("Rate limited — try again in 17 s");
    expect(err.retryable).toBe(false);
    expect(retryAfterSeconds("Wed, 01 Jan 2025 00:01:00 GMT", Date.parse("2025-01-01T00:00:00Z"))).toBe(60);
    expect(retryAfterSeconds("0.2")).toBe(1);
  });

  test("no server: a network failure that can be retried", async () => {
    const err = (await createApi({ server: "http://127.0.0.1:9", key: "k" })
      .me()
      .catch((e) => e)) as ApiError;
    expect(err.failure.kind).toBe("network");
    expect(err.message).toStartWith("Could not reach the server");
    expect(err.retryable).toBe(true);
    expect(describeFailure({ kind: "not_connected" })).toStartWith("Not connected");
  });
});

describe("saving", () => {
  test("sends the page's HTML with the link and adds tags to the ones the source has", async () => {
    bodies.length = 0;
    const api = createApi({ server, key: "k" });
    const r = await saveSource(api, {
      url: "https://example.com/a",
      html: "<html></html>",
      title: " A ",
      tags: ["x", " y", "x", ""],
      podcast: "debate",
    });
    expect(bodies).toEqual([
      {
        url: "https://example.com/a",
        title: "A",
        generate_quick_podcast: true,
        podcast_format: "debate",
        html: "<html></html>",
      },
    ]);
    expect(r.source.tags).toEqual(["old", "x", "y"]);
    expect(r.fetchedByServer).toBeUndefined();
  });

  test("a server that refuses `html` gets the link alone, and the result says so", async () => {
    bodies.length = 0;
    refuseHtml = true;
    const r = await saveSource(createApi({ server, key: "k" }), { url: "https://example.com/b", html: "<p>x</p>" });
    refuseHtml = false;
    expect(bodies.map((b) => "html" in b)).toEqual([true, false]);
    expect(r.fetchedByServer).toBe("Invalid request (html: is not allowed)");
  });

  test("quote notes, tags, addresses and the client label", () => {
    expect(quoteNote("line one\nline two ", "A [title]", "https://e.com/x>y")).toEqual({
      title: "Quote from A [title]",
      content: "> line one\n> line two\n\n— [A \\[title\\]](<https://e.com/x%3Ey>)\n",
    });
    expect(parseTags("a, b ,,a")).toEqual(["a", "b"]);
    expect(normalizeServer("notes.example.org:8080/")).toBe("http://notes.example.org:8080");
    expect(normalizeServer("https://e.org/cp/")).toBe("https://e.org/cp");
    expect(normalizeServer("ftp://e.org")).toBeNull();
    expect(originPattern("https://e.org/cp")).toBe("https://e.org/*");
    expect(sourcePageUrl("https://e.org", "src_1")).toBe("https://e.org/library/sources/src_1");
    expect(
      clientLabel({
        userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36",
        userAgentData: { brands: [{ brand: "Chromium" }], platform: "Linux" },
      }),
    ).toBe("Chromium on Linux");
    expect(clientLabel({ userAgent: "Mozilla/5.0 (Windows NT 10.0; rv:140.0) Gecko/20100101 Firefox/140.0" })).toBe(
      "Firefox on Windows",
    );
  });
});
