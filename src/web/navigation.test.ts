// The frame of every page: the navigation marks the current section, a skip link reaches the content,
// sign-up lands on the Library, the sign-in page says what Commonplace is, Settings links the API reference.
import { describe, expect, test } from "bun:test";
import { createTestContext } from "../../test/helpers.ts";
import { signUp, testBrowser } from "../../test/browser-client.ts";

/** The links the main navigation marks as the current page. */
const current = (text: string) => {
  const nav = /<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(text)?.[1] ?? "";
  return [...nav.matchAll(/<a href="([^"]+)" aria-current="page">/g)].map((m) => m[1]);
};

describe("navigation", () => {
  test("each page marks its own section, and only that one", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const res = await signUp(b, "nav@example.com");
    expect(res.location).toBe("/library");
    for (const [path, section] of [
      ["/library", "/library"],
      ["/notebooks", "/notebooks"],
      ["/notes", "/notes"],
      ["/search", "/search"],
      ["/podcasts", "/podcasts"],
      ["/workflows", "/workflows"],
      ["/settings", "/settings"],
      ["/settings/keys", "/settings"],
      ["/settings/import-export", "/settings"],
    ] as const) {
      const page = await b.get(path);
      expect(page.status).toBe(200);
      expect({ path, marked: current(page.text) }).toEqual({ path, marked: [section] });
    }
  });

  test("a skip link leads to the main content, and every page has its own title", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    await signUp(b, "skip@example.com");
    const titles = new Set<string>();
    for (const path of ["/library", "/notebooks", "/search", "/settings", "/settings/keys"]) {
      const page = await b.get(path);
      expect(page.text).toContain('<a class="skip" href="#main">Skip to content</a>');
      expect(page.text).toContain('<main id="main" tabindex="-1"');
      titles.add(page.text.match(/<title>([^<]*)<\/title>/)![1]!);
    }
    expect(titles.size).toBe(5);
  });

  test("the sign-in page says what Commonplace is; Settings links the API reference", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const signin = await b.get("/signin");
    expect(signin.text).toContain("Commonplace is your own library of what you read");
    await signUp(b, "ref@example.com");
    const settings = await b.get("/settings");
    expect(settings.text).toContain('<a href="/api/docs">API reference</a>');
  });
});
