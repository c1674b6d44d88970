// Which blob keys rows still point at (the blob sweep's question), written once for both engines.
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import type { SharedOrm } from "../../db/shared.ts";
import { podcasts, sourceImages, sources } from "../../db/schema/index.ts";

export interface BlobReferencesRepo {
  /** The keys among `keys` that a podcast's audio, a source's image or a source's thumbnail uses. */
  referenced(keys: string[]): Promise<Set<string>>;
}

/**
 * The three lookups, as builders their test can explain: each is answered from an index on its column
 * (migration 0024), so a sweep costs a few index probes per listed key, not a scan per batch.
 */
export function referenceQueries(orm: SharedOrm, keys: string[]) {
  return [
    orm.select({ k: podcasts.audioPath }).from(podcasts).where(inArray(podcasts.audioPath, keys)),
    orm.select({ k: sourceImages.blobKey }).from(sourceImages).where(inArray(sourceImages.blobKey, keys)),
    orm.select({ k: sources.imageKey }).from(sources).where(inArray(sources.imageKey, keys)),
  ] as const;
}

export function createBlobReferencesRepo(db: Db): BlobReferencesRepo {
  return {
    async referenced(keys) {
      const out = new Set<string>();
      if (keys.length === 0) return out;
      for (const query of referenceQueries(db.shared, keys)) for (const r of await query) if (r.k) out.add(r.k);
      return out;
    },
  };
}
