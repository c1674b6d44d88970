// PDF documents → text Markdown and metadata via unpdf (pdf.js), with malformed input reported, never fatal.
import { extractTextItems, getDocumentProxy } from "unpdf";
import { parsePdfDate, toRfc3339 } from "./dates.ts";
import { countWords } from "./markdown.ts";
import { normalizeLanguage } from "./metadata.ts";
import { pdfMarkdown } from "./pdf-layout.ts";
import { ExtractError, type Extracted } from "./types.ts";
import { cleanText, hostname, truncate } from "./util.ts";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

const PDF_MAGIC = "%PDF-";
// The header may follow some junk; readers accept it within the first kilobyte.
const MAGIC_WINDOW = 1024;
const TITLE_MAX = 200;
const EXCERPT_MAX = 300;
const DEFAULT_TIMEOUT_MS = 20_000;
const PLACEHOLDER_TITLE = /^(untitled|microsoft word - .*|document\d*)$/i;

function hasPdfHeader(body: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(body.subarray(0, MAGIC_WINDOW));
  return head.includes(PDF_MAGIC);
}

/** Rejects with malformed_pdf when `work` is not done in `ms`: a hostile file must not hold a job forever. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExtractError("malformed_pdf", `the PDF took over ${ms} ms to read`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function infoString(info: Record<string, unknown>, key: string): string | null {
  const value = info[key];
  return typeof value === "string" ? cleanText(value) : null;
}

async function readPdf(pdf: PdfDocument, url: string): Promise<Extracted> {
  const [{ items }, meta] = await Promise.all([
    extractTextItems(pdf),
    pdf.getMetadata().catch(() => ({ info: {}, metadata: null })),
  ]);
  const markdown = pdfMarkdown(items);
  if (!markdown) throw new ExtractError("empty_content", "the PDF has no extractable text (scanned images?)");
  const info = meta.info as Record<string, unknown>;
  const xmpTitle =
    typeof meta.metadata?.get === "function" ? cleanText(String(meta.metadata.get("dc:title") ?? "")) : null;
  const infoTitle = infoString(info, "Title");
  const firstLine =
    markdown
      .split("\n")
      .find((line) => line.trim())
      ?.replace(/^#{1,6}\s+/, "") ?? null;
  const title = [infoTitle, xmpTitle].find((t) => t && !PLACEHOLDER_TITLE.test(t)) ?? firstLine;
  const created = infoString(info, "CreationDate");
  return {
    title: truncate(title, TITLE_MAX),
    byline: infoString(info, "Author"),
    siteName: hostname(url),
    language: normalizeLanguage(infoString(info, "Language")),
    publishedAt: created ? (parsePdfDate(created) ?? toRfc3339(created)) : null,
    excerpt: truncate(
      markdown.split(/\n\s*\n/).find((p) => p.trim() && !p.startsWith("#") && p.trim() !== firstLine?.trim()) ?? null,
      EXCERPT_MAX,
    ),
    wordCount: countWords(markdown),
    markdown,
  };
}

/**
 * Reads a PDF; anything pdf.js cannot open, or that takes too long, becomes `malformed_pdf`. A page
 * count (pdf.js reads it from the page tree's root, before any page) above `maxPages` is refused
 * as `too_many_pages` before any text is read.
 */
export async function extractPdf(
  body: Uint8Array,
  url: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  maxPages = Infinity,
): Promise<Extracted> {
  if (!hasPdfHeader(body)) throw new ExtractError("malformed_pdf", "the body is not a PDF (no %PDF- header)");
  let pdf: PdfDocument | undefined;
  try {
    // pdf.js takes ownership of (and may detach) the buffer it is given, so it gets a copy.
    pdf = await withTimeout(getDocumentProxy(body.slice(), { verbosity: 0 }), timeoutMs);
    if (pdf.numPages > maxPages)
      throw new ExtractError("too_many_pages", `the PDF has ${pdf.numPages} pages; the limit is ${maxPages}`);
    return await withTimeout(readPdf(pdf, url), timeoutMs);
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractError("malformed_pdf", `the PDF could not be read: ${reason}`);
  } finally {
    void pdf?.loadingTask.destroy().catch(() => undefined);
  }
}
