// The library pages' guards: CSRF token and Origin on every POST, another user's objects are 404,
// signed-out visitors go to sign in and come back, and pages carry the strict headers.
import { beforeAll, describe, expect, test } from "bun:test";
import { call, createTestContext, type TestContext } from "../../../test/helpers.ts";
import { testBrowser } from "../../../test/browser-client.ts";
import { idIn, post, send, signedInPerson, type Person } from "./test-helpers.ts";

let ctx: TestContext;
let owner: Person;
let other: Person;
const ids = { src: "", nb: "", note: "" };

beforeAll(async () => {
  ctx = createTestContext();
  owner = await signedInPerson(ctx);
  other = await signedInPerson(ctx);
  ids.nb = idIn((await post(ctx, owner.b, "/notebooks", { name: "Private" })).location!, "nb");
  ids.note = idIn(
    (await post(ctx, owner.b, "/notes", { content: "secret plans", notebook_id: ids.nb })).location!,
    "note",
  );
  const src = await call(ctx, "POST", "/api/v1/sources", {
    key: owner.key,
    body: { url: "https://example.com/private", notebook_ids: [ids.nb] },
  });
  ids.src = src.body.id;
}, 60_000);

const postRoutes = () =>
  [
    ["/library/sources", { url: "https://example.com/new" }],
    [`/library/sources/${ids.src}/notebooks`, { notebook_id: ids.nb }],
    [`/library/sources/${ids.src}/notebooks/${ids.nb}/remove`, {}],
    [`/library/sources/${ids.src}/refetch`, {}],
    [`/library/sources/${ids.src}/delete`, {}],
    ["/notebooks", { name: "n" }],
    [`/notebooks/${ids.nb}`, { name: "renamed" }],
    [`/notebooks/${ids.nb}/sources/${ids.src}/remove`, {}],
    [`/notebooks/${ids.nb}/delete`, {}],
    ["/notes", { content: "x" }],
    [`/notes/${ids.note}`, { content: "changed" }],
    [`/notes/${ids.note}/delete`, {}],
    ["/search/ask", { question: "plans?" }],
  ] as [string, Record<string, string>][];

const getRoutes = () => [
  `/library/sources/${ids.src}`,
  `/library/sources/${ids.src}/delete`,
  `/notebooks/${ids.nb}`,
  `/notebooks/${ids.nb}/delete`,
  `/notebooks/${ids.nb}/export.zip`,
  `/notes/${ids.note}`,
  `/notes/${ids.note}/download`,
  `/notes/${ids.note}/delete`,
];

/** Nothing the owner had was changed by the refused requests. */
async function ownerDataIntact() {
  const src = await call(ctx, "GET", `/api/v1/sources/${ids.src}`, { key: owner.key });
  expect(src.status).toBe(200);
  expect(src.body.notebook_ids).toEqual([ids.nb]);
  expect((await call(ctx, "GET", `/api/v1/notebooks/${ids.nb}`, { key: owner.key })).body.name).toBe("Private");
  expect((await call(ctx, "GET", `/api/v1/notes/${ids.note}`, { key: owner.key })).body.content).toBe("secret plans");
  expect((await call(ctx, "GET", "/api/v1/sources", { key: owner.key })).body.data).toHaveLength(1);
}

describe("library security", () => {
  test("every POST without the session's CSRF token is refused with 403", async () => {
    for (const [action, fields] of postRoutes()) {
      const missing = await send(ctx, owner.b, action, new URLSearchParams(fields));
      expect([action, missing.status]).toEqual([action, 403]);
      expect(missing.text).toContain("This form cannot be accepted");
      const wrong = await send(ctx, owner.b, action, new URLSearchParams({ ...fields, csrf: "x".repeat(32) }));
      expect([action, wrong.status]).toEqual([action, 403]);
    }
    await ownerDataIntact();
  });

  test("every POST from another origin is refused with 403, even with the right token", async () => {
    const token = (await owner.b.get("/library")).text.match(/name="csrf" value="([^"]+)"/)![1]!;
    for (const [action, fields] of postRoutes()) {
      const res = await send(ctx, owner.b, action, new URLSearchParams({ ...fields, csrf: token }), {
        origin: "https://evil.example",
      });
      expect([action, res.status]).toEqual([action, 403]);
    }
    await ownerDataIntact();
  });

  test("another user's source, notebook and note are 404 pages, for reading and for changing", async () => {
    for (const path of getRoutes()) {
      const res = await other.b.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toContain("secret plans");
      expect(res.text).not.toContain("example.com/private");
    }
    const ownForeign = postRoutes().filter(
      ([action]) => !["/library/sources", "/notebooks", "/notes", "/search/ask"].includes(action),
    );
    for (const [action, fields] of ownForeign) {
      const res = await post(ctx, other.b, action, fields);
      expect([action, res.status]).toEqual([action, 404]);
    }
    // Naming the owner's notebook when saving a link of one's own does not reach it either.
    const sneaky = await post(ctx, other.b, "/library/sources", {
      url: "https://example.com/x",
      notebook_ids: [ids.nb],
    });
    expect(sneaky.status).toBe(422);
    await ownerDataIntact();
  });

  test("signed-out visitors are sent to sign in and brought back to the page they asked for", async () => {
    const anon = testBrowser(ctx);
    const pages = [
      `/library?status=ready&notebook=${ids.nb}`,
      "/notebooks",
      "/notes",
      "/notes/new",
      "/search?q=tide",
      ...getRoutes(),
    ];
    for (const path of pages) {
      const res = await anon.get(path);
      expect([path, res.status, res.location]).toEqual([path, 303, `/signin?next=${encodeURIComponent(path)}`]);
    }
    const back = testBrowser(ctx);
    const signin = await back.submit(`/signin?next=${encodeURIComponent(`/notes/${ids.note}`)}`, "/signin", {
      email: owner.email,
      password: "password123",
    });
    expect(signin.location).toBe(`/notes/${ids.note}`);
    const post = await anon.post("/library/sources", { url: "https://example.com/anon" });
    expect(post.status).toBe(303);
    expect(post.location).toBe(`/signin?next=${encodeURIComponent("/library")}`);
    await ownerDataIntact();
  });

  test("pages are private and strict: no caching, CSP by hash, no framing; the start page is the library", async () => {
    const res = await owner.b.get("/library");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toMatch(/style-src 'sha256-[^']+' 'sha256-[^']+'/);
    expect(csp).toContain("img-src 'self' data:;");
    expect(res.text).toContain('<a href="/notebooks">Notebooks</a>');
    expect((await owner.b.get("/")).location).toBe("/library");
  });
});
