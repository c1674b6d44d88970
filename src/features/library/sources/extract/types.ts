// The shapes extraction returns and the one error it throws, shared by every content-type handler.

export interface Extracted {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  language: string | null;
  /** RFC 3339 UTC, or null when the page gives no usable date. */
  publishedAt: string | null;
  excerpt: string | null;
  wordCount: number;
  markdown: string;
  /** The page's preview image (og:image, twitter:image), absolute; HTML pages only. */
  image?: string | null;
  /** Every image the Markdown shows, in order: what ingestion fetches, keeps or removes (extract() fills it). */
  images?: MarkdownImage[];
}

/** An image of the Markdown: its text as written and its absolute http(s) address (null: none to fetch). */
export interface MarkdownImage {
  raw: string;
  alt: string;
  url: string | null;
}

export interface ExtractInput {
  body: Uint8Array;
  /** Lowercased MIME type without parameters. */
  contentType: string;
  charset?: string;
  /** The final URL after redirects; relative links resolve against it. */
  url: string;
}

export type ExtractErrorCode =
  | "unsupported_content_type"
  | "empty_content"
  | "malformed_pdf"
  | "malformed_document"
  /** The extraction worker ran past its wall-clock limit and was terminated. */
  | "extraction_timeout"
  /** Nested deeper than the limit, or the extraction outgrew the memory bound and was terminated. */
  | "too_complex"
  /** A PDF with more pages than the limit. */
  | "too_many_pages";

export const EXTRACT_ERROR_CODES: readonly ExtractErrorCode[] = [
  "unsupported_content_type",
  "empty_content",
  "malformed_pdf",
  "malformed_document",
  "extraction_timeout",
  "too_complex",
  "too_many_pages",
];

/** Bounds checked before the expensive work starts (the pool adds time and memory bounds). */
export interface ExtractLimits {
  /** Deepest element nesting an HTML page may have. */
  maxDepth: number;
  /** Most pages a PDF may have. */
  maxPdfPages: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = Object.freeze({ maxDepth: 256, maxPdfPages: 500 });

export class ExtractError extends Error {
  override readonly name = "ExtractError";
  constructor(
    readonly code: ExtractErrorCode,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}
