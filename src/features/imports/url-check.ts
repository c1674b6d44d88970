// Which imported URLs may become sources: the shape a saved source needs (http(s), ≤ 2048 characters,
// no credentials), then the server's fetch policy (ALLOW_PRIVATE_NETWORK, ALLOWED_HOSTS), the rule
// safeFetch applies when the page is fetched. Host names are resolved only then (no DNS per entry).
import { checkFetchableUrl, type FetchPolicy } from "../../net/fetch-policy.ts";
import { parseHttpUrl } from "../library/sources/normalize.ts";

/** `policy` null checks the shape only (finding a saved source by its URL fetches nothing). */
export function checkImportUrl(
  raw: string,
  policy: FetchPolicy | null,
): { ok: true; url: URL } | { ok: false; reason: string } {
  const s = raw.trim();
  if (s.length > 2048) return { ok: false, reason: "the URL is longer than 2048 characters" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase();
  if (scheme && scheme !== "http" && scheme !== "https")
    return { ok: false, reason: `${scheme}: links are not saved (only http and https)` };
  const parsed = parseHttpUrl(s);
  if (!parsed.ok) return { ok: false, reason: parsed.message };
  if (policy) {
    const fetchable = checkFetchableUrl(parsed.url, policy);
    if (!fetchable.ok) {
      const hint = fetchable.code === "blocked_address" ? ", not in ALLOWED_HOSTS" : "";
      return { ok: false, reason: `${fetchable.reason}${hint}` };
    }
  }
  return { ok: true, url: parsed.url };
}
