// Content extraction for ingested sources: fetched bytes + content type → clean Markdown and metadata.
import { decodeMarkup, decodeText, looksBinary } from "./decode.ts";
import { extractHtml } from "./html.ts";
import { extractPdf } from "./pdf.ts";
import { nestingDepth } from "./nesting.ts";
import { extractPlainText } from "./text.ts";
import {
  DEFAULT_EXTRACT_LIMITS,
  ExtractError,
  type ExtractInput,
  type ExtractLimits,
  type Extracted,
} from "./types.ts";
import { mediaType } from "../../../../media-type.ts";
import { markdownImages } from "./markdown.ts";

export { countWords, htmlToMarkdown, markdownImages } from "./markdown.ts";
export {
  DEFAULT_EXTRACT_LIMITS,
  EXTRACT_ERROR_CODES,
  ExtractError,
  type ExtractErrorCode,
  type ExtractInput,
  type ExtractLimits,
  type Extracted,
  type MarkdownImage,
} from "./types.ts";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set(["text/plain", "text/markdown", "text/x-markdown"]);

function textual(text: string, type: string): string {
  if (looksBinary(text)) throw new ExtractError("malformed_document", `the body is binary, not ${type}`);
  return text;
}

/** The content type extraction dispatches on, or null when no handler reads it. */
export function extractableType(contentType: string): string | null {
  const type = mediaType(contentType);
  return HTML_TYPES.has(type) || TEXT_TYPES.has(type) || type === "application/pdf" ? type : null;
}

/** A page nested deeper than the limit is refused before parsing: its cost grows much faster than its size. */
function shallowEnough(html: string, maxDepth: number): string {
  const depth = nestingDepth(html, maxDepth);
  if (depth > maxDepth) throw new ExtractError("too_complex", `the page nests elements more than ${maxDepth} deep`);
  return html;
}

/**
 * Extracts on the calling thread. Servers call it through the extraction pool (extract/pool.ts),
 * which adds the time and memory bounds; the limits here are the cheap checks made up front.
 */
export async function extract(input: ExtractInput, limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS): Promise<Extracted> {
  const doc = await extractByType(input, limits);
  // Found here, in the extraction thread: ingestion keeps or removes each one without parsing again.
  return { ...doc, images: markdownImages(doc.markdown, input.url) };
}

async function extractByType(input: ExtractInput, limits: ExtractLimits): Promise<Extracted> {
  const type = mediaType(input.contentType);
  if (HTML_TYPES.has(type))
    return extractHtml(
      shallowEnough(textual(decodeMarkup(input.body, input.charset), type), limits.maxDepth),
      input.url,
    );
  if (type === "application/pdf") return extractPdf(input.body, input.url, undefined, limits.maxPdfPages);
  if (TEXT_TYPES.has(type)) return extractPlainText(textual(decodeText(input.body, input.charset), type), input.url);
  throw new ExtractError("unsupported_content_type", `cannot extract content from ${type || "an unknown type"}`);
}
