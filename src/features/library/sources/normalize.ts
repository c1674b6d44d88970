// URL normalisation for de-duplication: same page, same key, whatever tracking junk came along.
const TRACKING = new Set([
  "fbclid",
  "gclid",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "mc_eid",
  "mc_cid",
  "igshid",
  "yclid",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "vero_id",
  "oly_anon_id",
  "oly_enc_id",
  "rb_clickid",
  "s_cid",
  "ref_src",
  "twclid",
]);

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

export function parseHttpUrl(raw: string): UrlCheck {
  const s = raw.trim();
  if (s.length === 0) return { ok: false, message: "must not be empty" };
  if (s.length > 2048) return { ok: false, message: "must be at most 2048 characters" };
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return { ok: false, message: "must be an absolute http or https URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, message: "must use http or https" };
  if (!url.hostname) return { ok: false, message: "must have a host" };
  if (url.username || url.password) return { ok: false, message: "must not contain credentials" };
  return { ok: true, url };
}

/** Lower-cases scheme and host, drops default ports, fragments and tracking parameters, sorts the rest. */
export function normalizeUrl(input: URL | string): string {
  const url = new URL(typeof input === "string" ? input : input.href);
  url.hash = "";
  url.hostname = url.hostname.toLowerCase().replace(/\.$/, "");
  if ((url.protocol === "http:" && url.port === "80") || (url.protocol === "https:" && url.port === "443"))
    url.port = "";
  const kept = [...url.searchParams.entries()].filter(([k]) => {
    const key = k.toLowerCase();
    return !key.startsWith("utm_") && !TRACKING.has(key);
  });
  kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const search = new URLSearchParams(kept).toString();
  url.search = search ? `?${search}` : "";
  return url.href;
}
