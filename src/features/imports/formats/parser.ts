// Import files are parsed in a thread of their own (src/threads/pool.ts), never on the thread that
// answers requests: beyond the parsers' own linear reading and entry limits, a file that still takes
// too long or too much memory is stopped and refused with a clear reason.
import { workerUrl } from "../../../ai/speech/worker-client.ts";
import type { Logger } from "../../../log.ts";
import { createThreadPool } from "../../../threads/pool.ts";
import { parseImport } from "./index.ts";
import { ImportFormatError, type ImportFormat, type ImportItem, type ParseLimits } from "./types.ts";

export interface ParseTask {
  format: ImportFormat;
  bytes: Uint8Array;
  limits: ParseLimits;
}

export interface Parsed {
  items: ImportItem[];
  /** The file as it is kept until its import ends: gzip of its bytes (a 20 MB file of repeats is a few KB). */
  stored: Uint8Array;
  /** SHA-256 of the file, hex. */
  sha256: string;
}

export interface ImportParser {
  /**
   * The file's entries, hash and stored form, or an ImportFormatError saying what is wrong with it.
   * `bytes` is the file or its stored form (a resumed import); it is moved to the parsing thread, not
   * copied, so the caller's array is emptied.
   */
  parse(format: ImportFormat, bytes: Uint8Array, limits: ParseLimits): Promise<Parsed>;
  close(): Promise<void>;
}

export interface ImportParserOptions {
  timeoutMs: number;
  /** Growth of the process's RSS one file may cause; 0 = unbounded. */
  maxMemoryMb: number;
  logger?: Logger;
  workerUrl?: URL | string;
}

export function defaultParseWorkerUrl(): URL {
  return workerUrl("./worker.ts", import.meta.url, "features/imports/formats/worker.ts");
}

/** Bytes that own their whole buffer, so moving it takes nothing else along (a pooled Buffer is copied). */
export function movable(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes
    : bytes.slice();
}

const isGzip = (b: Uint8Array) => b[0] === 0x1f && b[1] === 0x8b;

/**
 * What the thread does with one file: parse it, hash it and compress it for keeping. No import format
 * starts with gzip's magic bytes, so a stored file is recognised as such (files stored before were kept
 * as they came, and are read as they are).
 */
export async function parseTask(task: ParseTask): Promise<Parsed> {
  const raw = task.bytes as Uint8Array<ArrayBuffer>;
  const kept = isGzip(raw);
  const stored = kept ? raw : Bun.gzipSync(raw, { level: 1 });
  const bytes = kept ? Bun.gunzipSync(raw) : raw;
  const items = await parseImport(task.format, bytes, task.limits);
  return { items, stored, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") };
}

export function createImportParser(opts: ImportParserOptions): ImportParser {
  // One thread: uploads are rare, and a second hostile file waits rather than doubling the memory.
  const pool = createThreadPool<ParseTask, Parsed>({
    url: opts.workerUrl ?? defaultParseWorkerUrl(),
    size: 1,
    timeoutMs: opts.timeoutMs,
    maxMemoryMb: opts.maxMemoryMb,
    // An archive's index or a JSON document can grow by tens of MB between two looks: look often.
    sampleMs: 10,
    logger: opts.logger,
    name: "import parsing",
    errors: {
      timeout: (ms) =>
        new ImportFormatError(
          `reading the file took longer than ${ms / 1000} s and was stopped (IMPORT_PARSE_TIMEOUT_MS)`,
        ),
      memory: (limit) =>
        new ImportFormatError(
          `reading the file needed more than ${limit} MB of memory and was stopped (IMPORT_PARSE_MAX_MEMORY_MB)`,
        ),
      fromReply: (code, message) => (code === "import_format" ? new ImportFormatError(message) : new Error(message)),
    },
    describe: (task) => ({ format: task.format, bytes: task.bytes.byteLength }),
    transfer: (task) => [task.bytes.buffer as ArrayBuffer],
  });
  return {
    parse: (format, bytes, limits) => pool.run({ format, bytes: movable(bytes), limits }),
    close: () => pool.close(),
  };
}
