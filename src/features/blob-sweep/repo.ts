// Which blob keys rows still point at (the blob sweep's question), written once for both engines.
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { podcasts, sourceImages, sources } from "../../db/schema/index.ts";

export interface BlobReferencesRepo {
  /** The keys among `keys` that a podcast's audio, a source's image or a source's thumbnail uses. */
  referenced(keys: string[]): Promise<Set<string>>;
}

export function createBlobReferencesRepo(db: Db): BlobReferencesRepo {
  const orm = db.shared;
  return {
    async referenced(keys) {
      const out = new Set<string>();
      if (keys.length === 0) return out;
      const audio = await orm.select({ k: podcasts.audioPath }).from(podcasts).where(inArray(podcasts.audioPath, keys));
      const images = await orm
        .select({ k: sourceImages.blobKey })
        .from(sourceImages)
        .where(inArray(sourceImages.blobKey, keys));
      const thumbnails = await orm.select({ k: sources.imageKey }).from(sources).where(inArray(sources.imageKey, keys));
      for (const r of [...audio, ...images, ...thumbnails]) if (r.k) out.add(r.k);
      return out;
    },
  };
}
