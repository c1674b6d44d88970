// Normalises the many ways pages and PDFs write a date into RFC 3339 UTC (or null).

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_WITH_SPACE = /^(\d{4}-\d{2}-\d{2})\s+(\d{2}:\d{2})/;
const PDF_DATE = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?/;
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

function fromMs(ms: number): string | null {
  if (!Number.isFinite(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return new Date(ms).toISOString();
}

/** Any date string a page may carry (ISO 8601, RFC 2822, "2024-03-05 09:30") → RFC 3339 UTC, or null. */
export function toRfc3339(value: unknown): string | null {
  if (value instanceof Date) return fromMs(value.getTime());
  if (typeof value !== "string") return null;
  let text = value.trim();
  if (!text || !/\d{4}/.test(text)) return null;
  if (text.startsWith("D:")) return parsePdfDate(text);
  // A bare date has no zone; reading it as UTC midnight keeps the calendar day everywhere.
  if (DATE_ONLY.test(text)) text += "T00:00:00Z";
  text = text.replace(ISO_WITH_SPACE, "$1T$2");
  return fromMs(Date.parse(text));
}

/** PDF dates look like D:YYYYMMDDHHmmSSOHH'mm' with everything after the year optional. */
export function parsePdfDate(text: string): string | null {
  const m = PDF_DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offsetMin = (Number(oh) * 60 + Number(om)) * (sign === "-" ? -1 : sign === "+" ? 1 : 0);
  return fromMs(utc - offsetMin * 60_000);
}
