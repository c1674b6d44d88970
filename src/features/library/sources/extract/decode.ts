// Bytes to text: BOM, then the declared charset (HTTP, then <meta>/XML prolog), then UTF-8 with a legacy fallback.

const PRESCAN_BYTES = 4096;
const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;
const XML_ENCODING = /^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

/** The WHATWG name for a charset label, or null when TextDecoder does not know it. */
export function normalizeCharset(label: string | undefined | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return null;
  }
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/** The charset a document declares about itself in its first few kilobytes. */
export function sniffDeclaredCharset(bytes: Uint8Array): string | null {
  // latin1 maps each byte to one code unit, so ASCII markup reads the same whatever the real charset.
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, PRESCAN_BYTES));
  const label = META_CHARSET.exec(head)?.[1] ?? XML_ENCODING.exec(head)?.[1];
  const charset = normalizeCharset(label);
  // A declaration we could read as ASCII cannot really be UTF-16 (the HTML spec says so too).
  return charset?.startsWith("utf-16") ? "utf-8" : charset;
}

/** Decodes markup: BOM > HTTP charset > in-document declaration > UTF-8 (windows-1252 if that fails). */
export function decodeMarkup(bytes: Uint8Array, httpCharset?: string): string {
  const charset = bomCharset(bytes) ?? normalizeCharset(httpCharset) ?? sniffDeclaredCharset(bytes);
  return decodeWith(bytes, charset);
}

/** Decodes plain text: BOM > HTTP charset > UTF-8 (windows-1252 if that fails). */
export function decodeText(bytes: Uint8Array, httpCharset?: string): string {
  return decodeWith(bytes, bomCharset(bytes) ?? normalizeCharset(httpCharset));
}

function decodeWith(bytes: Uint8Array, charset: string | null): string {
  if (charset) return new TextDecoder(charset).decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Undeclared and not valid UTF-8: old Western pages are far the likeliest.
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

const SNIFF_CHARS = 8192;
// C0 controls other than tab, line feed, form feed and carriage return never appear in real text.
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f]/g;

/** True when decoded "text" is really binary (an image or archive served with a text type). */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, SNIFF_CHARS);
  const controls = head.match(CONTROL)?.length ?? 0;
  return controls > 0 && controls / head.length > 0.01;
}
