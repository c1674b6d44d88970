// source_images: the images of a source's archived copy (and its card thumbnail), kept in the blob store.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sources } from "./sources.ts";

export const sourceImages = sqliteTable(
  "source_images",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    /** The file name in its address: a hash of the stored bytes and an extension ("3fa9….webp"). */
    name: text("name").notNull(),
    blobKey: text("blob_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width"),
    height: integer("height"),
    /** Where it was fetched from. */
    url: text("url").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.name] })],
);
export type SourceImageRow = typeof sourceImages.$inferSelect;
