// Highlights as CSV in the column layout Readwise's CSV import takes, quoted per RFC 4180, with
// cells a spreadsheet would read as a formula defused.
import type { HighlightExportRow } from "./service.ts";

export const CSV_HEADER = ["Highlight", "Title", "Author", "URL", "Note", "Location", "Date"] as const;

/**
 * One cell: a text starting with = + - @ (or a tab or carriage return, which some spreadsheets skip
 * before reading a formula) gets a leading apostrophe; a cell with a quote, comma or line break is
 * quoted, its quotes doubled.
 */
export function csvCell(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: readonly (string | number | null)[]) => `${cells.map(csvCell).join(",")}\r\n`;

export function csvRow(h: HighlightExportRow): string {
  return csvLine([
    h.exact,
    h.source.title ?? h.source.url,
    h.source.byline,
    h.source.url,
    h.note,
    h.position.start,
    h.created_at,
  ]);
}

/** The whole file, streamed as the highlights are read. */
export function csvStream(rows: AsyncIterable<HighlightExportRow>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = rows[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(enc.encode(csvLine(CSV_HEADER)));
        return;
      }
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(enc.encode(csvRow(next.value)));
    },
    async cancel() {
      await it.return?.();
    },
  });
}
