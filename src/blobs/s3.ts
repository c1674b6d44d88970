// BlobStore on an S3-compatible bucket through Bun's built-in client (AWS S3, MinIO, R2, Garage…).
import { rm } from "node:fs/promises";
import { type BlobListing, type BlobStat, type BlobStore, checkKey, checkRange } from "./port.ts";

export interface S3BlobOptions {
  endpoint?: string;
  bucket: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "NoSuchKey" || code === "NotFound" || code === "ERR_S3_FILE_NOT_FOUND";
}

export function createS3BlobStore(o: S3BlobOptions): BlobStore {
  // The secret lives only inside the client; nothing here logs options or client.
  const client = new Bun.S3Client({
    endpoint: o.endpoint,
    bucket: o.bucket,
    region: o.region,
    accessKeyId: o.accessKeyId,
    secretAccessKey: o.secretAccessKey,
  });

  async function stat(key: string): Promise<BlobStat | null> {
    try {
      const s = await client.stat(checkKey(key));
      return { size: s.size, etag: s.etag, lastModified: s.lastModified };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    kind: "s3",
    async put(key, data) {
      // A stream of unknown length goes up in parts; S3 shows the object only once it is complete.
      await client.file(checkKey(key)).write(data instanceof ReadableStream ? new Response(data) : data);
    },
    async moveIn(key, localPath) {
      await client.file(checkKey(key)).write(Bun.file(localPath));
      await rm(localPath, { force: true });
    },
    async get(key, range) {
      const s = await stat(key);
      if (!s) return null;
      const file = client.file(key);
      if (!range) return { body: file.stream(), size: s.size };
      checkRange(range, s.size);
      return { body: file.slice(range.start, range.end + 1).stream(), size: range.end - range.start + 1 };
    },
    stat,
    async delete(key) {
      try {
        await client.delete(checkKey(key));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
    async *list(prefix): AsyncGenerator<BlobListing> {
      checkKey(prefix.replace(/\/+$/, ""));
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix, continuationToken });
        for (const o of page.contents ?? []) {
          // Without a date the blob counts as new (a sweep leaves it alone).
          yield { key: o.key, lastModified: o.lastModified ? new Date(o.lastModified) : new Date() };
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },
  };
}
