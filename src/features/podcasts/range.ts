// Parses an HTTP Range header (RFC 9110 §14) for one byte range of a file of known size.

export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * One `bytes=` range: `a-b`, `a-` or the suffix `-n`. A range starting past the end, an empty
 * suffix, or a malformed `bytes=` value is unsatisfiable (416). Other units are ignored (full
 * file), and so is a list of several ranges: one whole file beats a multipart reply for audio players.
 */
export function parseRange(header: string | null, size: number): RangeResult {
  if (header === null) return { kind: "full" };
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m) return { kind: "full" };
  const spec = m[1]!.trim();
  if (spec.includes(",")) return { kind: "full" };
  const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!r || (r[1] === "" && r[2] === "")) return { kind: "unsatisfiable" };
  if (r[1] === "") {
    const suffix = Number(r[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
  if (start >= size || Number(r[2] || start) < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}
