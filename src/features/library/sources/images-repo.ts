// SQL for the images of sources' archived copies (source_images), written once for both engines.
import { and, asc, eq, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import { sourceImages, sources, type SourceImageRow } from "../../../db/schema/index.ts";

export type NewSourceImage = Omit<SourceImageRow, "sourceId" | "createdAt">;

export interface SourceImagesRepo {
  /** The owner's image of a source by its name; undefined for another owner's source. */
  byName(userId: string, sourceId: string, name: string): Promise<SourceImageRow | undefined>;
  /** Every blob key a source's images use (to delete them with the source). */
  keys(sourceId: string): Promise<string[]>;
  /** Makes `rows` the source's images; returns the blob keys of the images it no longer has. */
  replace(sourceId: string, rows: NewSourceImage[], at: string): Promise<string[]>;
  /** How many images a source keeps. */
  count(sourceId: string): Promise<number>;
}

export function createSourceImagesRepo(db: Db): SourceImagesRepo {
  const orm = db.shared;
  return {
    async byName(userId, sourceId, name) {
      const row = await orm
        .select({ i: sourceImages })
        .from(sourceImages)
        .innerJoin(sources, eq(sources.id, sourceImages.sourceId))
        .where(and(eq(sourceImages.sourceId, sourceId), eq(sourceImages.name, name), eq(sources.userId, userId)))
        .get();
      return row?.i;
    },
    async keys(sourceId) {
      const rows = await orm
        .select({ k: sourceImages.blobKey })
        .from(sourceImages)
        .where(eq(sourceImages.sourceId, sourceId))
        .orderBy(asc(sourceImages.name));
      return rows.map((r) => r.k);
    },
    async replace(sourceId, rows, at) {
      const names = rows.map((r) => r.name);
      const gone = await orm
        .delete(sourceImages)
        .where(
          names.length > 0
            ? and(eq(sourceImages.sourceId, sourceId), notInArray(sourceImages.name, names))
            : eq(sourceImages.sourceId, sourceId),
        )
        .returning({ k: sourceImages.blobKey });
      for (const row of rows) {
        await orm
          .insert(sourceImages)
          .values({ ...row, sourceId, createdAt: at })
          .onConflictDoUpdate({
            target: [sourceImages.sourceId, sourceImages.name],
            set: { blobKey: row.blobKey, contentType: row.contentType, bytes: row.bytes, url: row.url },
          });
      }
      return gone.map((g) => g.k);
    },
    async count(sourceId) {
      const row = await orm
        .select({ n: sql<number>`count(*)` })
        .from(sourceImages)
        .where(eq(sourceImages.sourceId, sourceId))
        .get();
      return Number(row?.n ?? 0);
    },
  };
}
