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
  | "malformed_document";

export class ExtractError extends Error {
  override readonly name = "ExtractError";
  constructor(
    readonly code: ExtractErrorCode,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}
