// Reading request bodies within limits: bytes counted while streaming (a chunked body has no
// Content-Length to check up front), and JSON nesting bounded before JSON.parse ever sees it.
import { AppError } from "../errors.ts";

export interface JsonLimits {
  maxBytes: number;
  maxDepth: number;
}

export const tooLarge = (maxBytes: number, declared?: number) =>
  new AppError(
    "payload_too_large",
    declared === undefined
      ? `The body is larger than the limit of ${maxBytes} bytes`
      : `The body is ${declared} bytes; the limit is ${maxBytes}`,
  );

// The client went away or broke the framing mid-body.
const unreadable = () => new AppError("bad_request", "The request body could not be read to its end");

/** The declared Content-Length, or undefined when absent or not a plain number. */
export function declaredLength(request: Request): number | undefined {
  const raw = request.headers.get("content-length");
  return raw !== null && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/** The whole body, refusing (413) as soon as the declared or counted size passes maxBytes. */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maxBytes) throw tooLarge(maxBytes, declared);
  if (!request.body) return new Uint8Array(0);
  if (declared !== undefined) {
    // A declared length is what the server reads (HTTP framing); one read is the fast path.
    let buffer: ArrayBuffer;
    try {
      buffer = await request.arrayBuffer();
    } catch {
      throw unreadable();
    }
    if (buffer.byteLength > maxBytes) throw tooLarge(maxBytes);
    return new Uint8Array(buffer);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (e) {
    throw e instanceof AppError ? e : unreadable();
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The index just past the point where arrays and objects nest deeper than maxDepth, or -1. One
 * linear pass that skips strings, so it costs little next to JSON.parse and never recurses; it
 * runs before parsing because JSON.stringify, schema checks and error messages all recurse.
 */
export function exceedsDepth(text: string, maxDepth: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let j = text.indexOf('"', i + 1);
      while (j !== -1) {
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) return -1; // an unterminated string: JSON.parse reports it
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i + 1;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

export const tooDeep = (maxDepth: number, path = "body") =>
  new AppError("validation_failed", `The JSON body nests arrays and objects more than ${maxDepth} levels deep`, {
    errors: [{ path, message: `nests arrays and objects more than ${maxDepth} levels deep` }],
  });

const malformed = (reason: string) => new AppError("malformed_json", `The request body is not valid JSON: ${reason}`);

/** Text of a JSON body: checked for depth, then parsed. An empty body is malformed JSON. */
export function parseJson(text: string, maxDepth: number): unknown {
  if (exceedsDepth(text, maxDepth) !== -1) throw tooDeep(maxDepth);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw malformed(text.trim() === "" ? "the body is empty" : e instanceof Error ? e.message : String(e));
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text of a body (JSON is UTF-8; a broken byte sequence is malformed, not replaced). */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw malformed("its bytes are not UTF-8");
  }
}

/** A JSON body read within the limits: 413, 400 or 422 (too deep) as AppErrors. */
export async function readJson(request: Request, limits: JsonLimits): Promise<unknown> {
  return parseJson(decodeUtf8(await readBody(request, limits.maxBytes)), limits.maxDepth);
}
