// Reads the saved times export files carry: epoch seconds (browsers, Pocket, Karakeep), milliseconds,
// microseconds (some Chromium tools) or a date string (Omnivore, our own export).
const MIN = Date.UTC(1990, 0, 1);

/** ms since the epoch, or an error message for the item's problem list. */
export function readSavedAt(raw: string | number | undefined, now: number): { ms: number } | { error: string } | null {
  if (raw === undefined || raw === "") return null;
  let ms: number;
  const n = typeof raw === "number" ? raw : /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (Number.isFinite(n)) {
    // The magnitude tells the unit: seconds until the year 5138, then ms, then µs.
    ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : n / 1000;
  } else if (typeof raw === "string") {
    ms = Date.parse(raw);
  } else ms = NaN;
  if (!Number.isFinite(ms))
    return { error: `the saved date "${String(raw).slice(0, 40)}" is not a date; the import time is used` };
  // A day of slack for clocks; older than 1990 is a broken exporter (e.g. ADD_DATE="0").
  if (ms < MIN || ms > now + 86_400_000)
    return { error: `the saved date "${String(raw).slice(0, 40)}" is out of range; the import time is used` };
  return { ms: Math.round(ms) };
}
