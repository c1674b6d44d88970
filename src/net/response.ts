// Turns the final response into a SafeResponse: content-type allow-list, size limit, bounded body read.
import { FetchError } from "./errors.ts";
import { mediaType } from "../media-type.ts";

export interface SafeResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The final URL after redirects, without credentials. */
  url: string;
  redirects: number;
  body: Uint8Array;
  /** Lowercased MIME type without parameters; "" when the server sent none. */
  contentType: string;
  /** The body decoded with the charset of Content-Type (UTF-8 when absent or unknown). */
  text(): string;
  json(): unknown;
}

export interface FinishOptions {
  url: string;
  redirects: number;
  method: string;
  maxBytes: number;
  accept?: readonly string[];
}

function charsetOf(header: string | null): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header ?? "");
  return match?.[1]?.toLowerCase() ?? "utf-8";
}

/** Patterns are exact types ("text/html"), a whole top-level type ("text/*") or anything ("*\/*"). */
export function contentTypeAllowed(accept: readonly string[], mime: string): boolean {
  return accept.some((raw) => {
    const pattern = raw.trim().toLowerCase();
    if (pattern === "*/*") return true;
    if (pattern.endsWith("/*")) return mime.startsWith(pattern.slice(0, -1));
    return pattern === mime;
  });
}

function discard(res: Response): void {
  res.body?.cancel().catch(() => {});
}

function tooLarge(maxBytes: number, url: string): FetchError {
  return new FetchError("too_large", `response body is larger than the limit of ${maxBytes} bytes`, url);
}

/** Reads the body chunk by chunk and stops (closing the connection) as soon as it passes maxBytes. */
export async function readLimited(res: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw tooLarge(maxBytes, url);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function decode(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

export async function finishResponse(res: Response, opts: FinishOptions): Promise<SafeResponse> {
  const header = res.headers.get("content-type");
  const contentType = mediaType(header);
  if (opts.accept && res.ok && !contentTypeAllowed(opts.accept, contentType)) {
    discard(res);
    const got = contentType === "" ? "no content type" : `"${contentType}"`;
    throw new FetchError("unsupported_content_type", `expected ${opts.accept.join(", ")}, got ${got}`, opts.url);
  }
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (opts.method !== "HEAD" && Number.isFinite(declared) && declared > opts.maxBytes) {
    discard(res);
    throw tooLarge(opts.maxBytes, opts.url);
  }
  const body = opts.method === "HEAD" ? new Uint8Array(0) : await readLimited(res, opts.maxBytes, opts.url);
  const charset = charsetOf(header);
  let text: string | undefined;
  return {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    url: opts.url,
    redirects: opts.redirects,
    body,
    contentType,
    text: () => (text ??= decode(body, charset)),
    json: () => JSON.parse((text ??= decode(body, charset))) as unknown,
  };
}
