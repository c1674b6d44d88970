// The BlobStore port: files (podcast audio first) kept by key, on the local disk or in an S3-compatible bucket.

export interface BlobStat {
  size: number;
  /** Opaque; changes when the content changes. */
  etag: string;
  lastModified: Date;
}

export interface BlobBody {
  /** The bytes asked for: the whole blob, or only the range. */
  body: Blob | ReadableStream<Uint8Array>;
  /** Length of `body` in bytes. */
  size: number;
}

/** One blob as a listing names it. */
export interface BlobListing {
  key: string;
  lastModified: Date;
}

export interface BlobStore {
  readonly kind: "fs" | "s3";
  /** Writes the whole blob; a reader sees the old content or the new, never a part. */
  put(key: string, data: Uint8Array | ReadableStream<Uint8Array> | Blob): Promise<void>;
  /**
   * Makes a finished local file the blob and removes the file: on the same disk a rename (no second
   * copy of an episode's bytes), elsewhere an upload.
   */
  moveIn(key: string, localPath: string): Promise<void>;
  /** The blob, or the inclusive byte range `start..end` of it; null when there is no such key. */
  get(key: string, range?: { start: number; end: number }): Promise<BlobBody | null>;
  stat(key: string): Promise<BlobStat | null>;
  /** Removing a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every blob whose key starts with `prefix` (a folder: `podcasts/`), in pages, in no promised
   * order; a blob written or deleted during the listing may or may not be in it.
   */
  list(prefix: string): AsyncIterable<BlobListing>;
}

export class InvalidBlobKey extends Error {
  constructor(key: string, why: string) {
    super(`invalid blob key ${JSON.stringify(key)}: ${why}`);
  }
}

/**
 * Keys are relative paths of plain segments: the fs adapter joins them under its root, so a key
 * must never climb out of it (`..`), start at the file system root, or hide a control character.
 */
export function checkKey(key: string): string {
  if (key.length === 0 || key.length > 512) throw new InvalidBlobKey(key, "must be 1 to 512 characters");
  if (key.startsWith("/") || key.includes("\\") || /^[A-Za-z]:/.test(key))
    throw new InvalidBlobKey(key, "must be a relative path with / separators");
  if (/[\x00-\x1f\x7f]/.test(key)) throw new InvalidBlobKey(key, "must not contain control characters");
  for (const seg of key.split("/")) {
    if (seg === "" || seg === "." || seg === "..") throw new InvalidBlobKey(key, "has an empty, . or .. segment");
  }
  return key;
}

/** A range that fits a blob of `size` bytes (the HTTP layer has already clamped it). */
export function checkRange(range: { start: number; end: number }, size: number): void {
  const { start, end } = range;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= size)
    throw new RangeError(`range ${start}-${end} does not fit a blob of ${size} bytes`);
}
