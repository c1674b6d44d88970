// Import files are parsed in a thread of their own (src/threads/pool.ts), never on the thread that
// answers requests: beyond the parsers' own linear reading and entry limits, a file that still takes
// too long or too much memory is stopped and refused with a clear reason.
import { workerUrl } from "../../../ai/speech/worker-client.ts";
import type { Logger } from "../../../log.ts";
import { createThreadPool } from "../../../threads/pool.ts";
import { ImportFormatError, type ImportFormat, type ImportItem, type ParseLimits } from "./types.ts";

export interface ParseTask {
  format: ImportFormat;
  bytes: Uint8Array;
  limits: ParseLimits;
}

export interface ImportParser {
  /** The file's entries, or an ImportFormatError saying what is wrong with it. */
  parse(format: ImportFormat, bytes: Uint8Array, limits: ParseLimits): Promise<ImportItem[]>;
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

export function createImportParser(opts: ImportParserOptions): ImportParser {
  // One thread: uploads are rare, and a second hostile file waits rather than doubling the memory.
  const pool = createThreadPool<ParseTask, ImportItem[]>({
    url: opts.workerUrl ?? defaultParseWorkerUrl(),
    size: 1,
    timeoutMs: opts.timeoutMs,
    maxMemoryMb: opts.maxMemoryMb,
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
  });
  return {
    parse: (format, bytes, limits) => pool.run({ format, bytes, limits }),
    close: () => pool.close(),
  };
}
