// TypeBox shapes for imports: the public view of an import job and the list query.
import { t, type Static } from "elysia";
import { Int, oneOf } from "../../http/schema.ts";
import { IMPORT_FORMATS } from "./formats/types.ts";

const Nullable = <T extends import("@sinclair/typebox").TSchema>(s: T) => t.Union([s, t.Null()]);
export const IMPORT_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

export const ImportProblem = t.Object({
  entry: Int({ description: "1-based position of the entry among the file's entries" }),
  line: Nullable(Int({ description: "1-based line of the file (or entry number for JSON and zip formats)" })),
  url: Nullable(t.String()),
  reason: t.String(),
});

export const ImportPublic = t.Object({
  id: t.String(),
  format: oneOf(IMPORT_FORMATS),
  filename: Nullable(t.String()),
  status: oneOf(IMPORT_STATUSES),
  counts: t.Object({
    total: Int({
      description:
        "Entries in the file (links, notes, feeds, unreadable entries); folders are counted in notebooks_created",
    }),
    processed: Int(),
    created: Int(),
    already_saved: Int(),
    invalid: Int(),
    failed: Int(),
    notebooks_created: Int(),
    feeds_watched: Int({ description: "OPML: feed watches made (also counted in created)" }),
  }),
  fetching: t.Object(
    { pending: Int(), ready: Int(), failed: Int() },
    { description: "The sources this import created, by fetch status: progress of fetching and extraction" },
  ),
  problems: t.Array(ImportProblem, { description: "Per-item problems, the first 1000" }),
  problems_total: Int(),
  error: Nullable(t.String()),
  created_at: t.String(),
  started_at: Nullable(t.String()),
  finished_at: Nullable(t.String()),
});
export type ImportPublic = Static<typeof ImportPublic>;

export const ImportFormatField = oneOf(["auto", ...IMPORT_FORMATS], {
  description: "The file's format, or `auto` to detect it from the content",
});
