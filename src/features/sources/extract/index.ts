// Content extraction for ingested sources: fetched bytes + content type → clean Markdown and metadata.
import { decodeMarkup, decodeText, looksBinary } from "./decode.ts";
import { extractHtml } from "./html.ts";
import { extractPdf } from "./pdf.ts";
import { extractPlainText } from "./text.ts";
import { ExtractError, type ExtractInput, type Extracted } from "./types.ts";

export { countWords, htmlToMarkdown } from "./markdown.ts";
export { ExtractError, type ExtractErrorCode, type ExtractInput, type Extracted } from "./types.ts";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set(["text/plain", "text/markdown", "text/x-markdown"]);

function textual(text: string, type: string): string {
  if (looksBinary(text)) throw new ExtractError("malformed_document", `the body is binary, not ${type}`);
  return text;
}

export async function extract(input: ExtractInput): Promise<Extracted> {
  const type = input.contentType.split(";")[0]!.trim().toLowerCase();
  if (HTML_TYPES.has(type)) return extractHtml(textual(decodeMarkup(input.body, input.charset), type), input.url);
  if (type === "application/pdf") return extractPdf(input.body, input.url);
  if (TEXT_TYPES.has(type)) return extractPlainText(textual(decodeText(input.body, input.charset), type), input.url);
  throw new ExtractError("unsupported_content_type", `cannot extract content from ${type || "an unknown type"}`);
}
