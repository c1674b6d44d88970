// Which imported URLs may become sources: http(s) only, and no private or loopback literal hosts unless
// the server allows the private network (names are checked again when fetched, by safeFetch).
import { checkAddress } from "../../net/address.ts";
import { parseHostForCheck } from "../../net/ip.ts";
import { parseHttpUrl } from "../sources/normalize.ts";

export function checkImportUrl(
  raw: string,
  allowPrivate: boolean,
): { ok: true; url: URL } | { ok: false; reason: string } {
  const s = raw.trim();
  if (s.length > 2048) return { ok: false, reason: "the URL is longer than 2048 characters" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase();
  if (scheme && scheme !== "http" && scheme !== "https")
    return { ok: false, reason: `${scheme}: links are not saved (only http and https)` };
  const parsed = parseHttpUrl(s);
  if (!parsed.ok) return { ok: false, reason: parsed.message };
  if (!allowPrivate) {
    const host = parseHostForCheck(parsed.url.hostname);
    const local = host.kind === "name" && (host.name === "localhost" || host.name.endsWith(".localhost"));
    if (local || ((host.kind === "ipv4" || host.kind === "ipv6") && checkAddress(host.address).blocked)) {
      return { ok: false, reason: "the URL points at a private or loopback address" };
    }
  }
  return { ok: true, url: parsed.url };
}
