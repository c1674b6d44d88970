import { describe, expect, test } from "bun:test";
import { normalizeUrl, parseHttpUrl } from "./normalize.ts";

describe("normalizeUrl", () => {
  test.each([
    ["HTTP://Example.COM:80/a?b=2&a=1#frag", "http://example.com/a?a=1&b=2"],
    ["https://example.com:443/", "https://example.com/"],
    ["https://example.com:8443/x", "https://example.com:8443/x"],
    ["https://example.com/p?utm_source=x&utm_medium=y&id=3", "https://example.com/p?id=3"],
    ["https://example.com/p?fbclid=1&gclid=2&mc_eid=3&keep=yes", "https://example.com/p?keep=yes"],
    ["https://example.com./path", "https://example.com/path"],
    ["https://example.com", "https://example.com/"],
    ["https://example.com/Path/Case", "https://example.com/Path/Case"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  test("equivalent URLs share one key", () => {
    expect(normalizeUrl("https://EXAMPLE.com/a?x=1&y=2#top")).toBe(
      normalizeUrl("https://example.com:443/a?y=2&x=1&utm_campaign=z"),
    );
  });
});

describe("parseHttpUrl", () => {
  test.each([
    ["", "must not be empty"],
    ["not a url", "must be an absolute http or https URL"],
    ["ftp://example.com/x", "must use http or https"],
    ["javascript:alert(1)", "must use http or https"],
    ["https://user:pw@example.com/", "must not contain credentials"],
    [`https://example.com/${"a".repeat(2100)}`, "must be at most 2048 characters"],
  ])("%s is refused", (input, message) => {
    const r = parseHttpUrl(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe(message);
  });

  test("accepts http and https", () => {
    expect(parseHttpUrl("http://example.com/").ok).toBe(true);
    expect(parseHttpUrl(" https://example.com/x ").ok).toBe(true);
  });
});
