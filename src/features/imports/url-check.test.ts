// The import's up-front URL check: the shape of a source's URL, then the server's one fetch policy.
import { describe, expect, test } from "bun:test";
import { createFetchPolicy } from "../../net/fetch-policy.ts";
import { checkImportUrl } from "./url-check.ts";

const closed = createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: [] });
const lan = createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: [] });

describe("checkImportUrl", () => {
  test("private and loopback literals are refused unless the private network is allowed", () => {
    for (const u of [
      "http://127.0.0.1/x",
      "http://[::1]/",
      "http://10.0.0.5/",
      "http://localhost:3000/",
      "http://0x7f000001/",
    ]) {
      expect(checkImportUrl(u, closed).ok).toBe(false);
      expect(checkImportUrl(u, lan).ok).toBe(true);
    }
    expect(checkImportUrl("https://example.com/ok", closed).ok).toBe(true);
    expect(checkImportUrl("JavaScript:alert(1)", lan)).toEqual({
      ok: false,
      reason: "javascript: links are not saved (only http and https)",
    });
  });

  test("ALLOWED_HOSTS opens its hosts and no others, as safeFetch does", () => {
    const policy = createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: ["127.0.0.1", "nas.localhost"] });
    expect(checkImportUrl("http://127.0.0.1:8080/page", policy).ok).toBe(true);
    expect(checkImportUrl("http://2130706433/page", policy).ok).toBe(true);
    expect(checkImportUrl("http://nas.localhost/page", policy).ok).toBe(true);
    expect(checkImportUrl("http://127.0.0.2/page", policy)).toEqual({
      ok: false,
      reason: "refused: 127.0.0.2 is a loopback address (127.0.0.0/8), not in ALLOWED_HOSTS",
    });
    expect(checkImportUrl("http://localhost/page", policy).ok).toBe(false);
  });

  test("cloud metadata stays closed with the LAN open, unless its IP is listed", () => {
    expect(checkImportUrl("http://169.254.169.254/latest", lan).ok).toBe(false);
    const listed = createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: ["169.254.169.254"] });
    expect(checkImportUrl("http://169.254.169.254/latest", listed).ok).toBe(true);
  });

  test("without a policy only the shape is checked (finding a saved source fetches nothing)", () => {
    expect(checkImportUrl("http://10.0.0.5/", null).ok).toBe(true);
    expect(checkImportUrl("ftp://example.com/", null).ok).toBe(false);
    expect(checkImportUrl("https://user:pw@example.com/", null).ok).toBe(false);
  });
});
