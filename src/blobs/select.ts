// Chooses the BlobStore from config: the fs store over DATA_DIR (default) or an S3-compatible bucket.
import type { Config } from "../config.ts";
import { createFsBlobStore } from "./fs.ts";
import type { BlobStore } from "./port.ts";
import { createS3BlobStore } from "./s3.ts";

export function createBlobStore(config: Config): BlobStore {
  const { kind, s3 } = config.blobs;
  if (kind === "s3") return createS3BlobStore({ ...s3, bucket: s3.bucket! });
  // Rooted at DATA_DIR itself: keys such as podcasts/<id>.mp3 are the paths episodes always had.
  return createFsBlobStore(config.dataDir);
}
