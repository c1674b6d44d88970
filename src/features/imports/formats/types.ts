// What every import format parser yields: a flat, ordered list of entries, so a job can resume by index.
export const IMPORT_FORMATS = [
  "netscape",
  "pocket_csv",
  "pocket_html",
  "omnivore",
  "karakeep",
  "opml",
  "urls",
  "commonplace",
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface LinkItem {
  kind: "link";
  /** 1-based line in the file where known, else the entry's position. */
  line?: number;
  url: string;
  title?: string;
  /** Raw saved time as the file has it (epoch seconds, ms or a date string); checked later. */
  savedAt?: string | number;
  tags: string[];
  /** Notebook names (nested folders joined with " / "). */
  notebooks: string[];
  archived?: boolean;
  /** Page content the export carried: used instead of fetching again. */
  content?: { type: "html" | "markdown"; text: string };
}
export interface NotebookItem {
  kind: "notebook";
  line?: number;
  name: string;
  description?: string | null;
}
export interface FeedItem {
  kind: "feed";
  line?: number;
  url: string;
  title?: string;
}
export interface NoteItem {
  kind: "note";
  line?: number;
  title: string | null;
  content: string;
  notebook?: string;
  /** URLs of the sources it cites. */
  sourceUrls: string[];
  createdAt?: string;
}
/** An entry the parser could not read: reported as invalid, counted in total. */
export interface BadItem {
  kind: "bad";
  line?: number;
  url?: string;
  reason: string;
}
export type ImportItem = LinkItem | NotebookItem | FeedItem | NoteItem | BadItem;

/** The file is not what it claims, or is past a limit: the upload is refused with 422. */
export class ImportFormatError extends Error {
  readonly code = "import_format";
}

/** Bounds every parser enforces while it reads, so a hostile file stops early instead of after. */
export interface ParseLimits {
  /** Entries (links, feeds, notes, bad entries) in one file. */
  maxItems: number;
  /** Folders in one file (they are not entries, but each becomes a notebook). */
  maxFolders: number;
  /** Folders inside folders. */
  maxDepth: number;
  /** Longest folder name (a notebook's name) and longest full path of one, in characters. */
  maxNameLength: number;
  /** Longest title kept for a link. */
  maxTitleLength: number;
  /** Bytes an archive may unpack to, counted from the real inflated bytes. */
  maxUnpackedBytes: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxItems: 100_000,
  maxFolders: 10_000,
  maxDepth: 64,
  maxNameLength: 200,
  maxTitleLength: 500,
  maxUnpackedBytes: 20 * 1024 * 1024,
};

/** Counts entries as a parser yields them and stops the file at the limit. */
export function entryCounter(limits: ParseLimits): () => void {
  let n = 0;
  return () => {
    if (++n > limits.maxItems)
      throw new ImportFormatError(
        `the file has more than ${limits.maxItems} entries; one import takes at most ${limits.maxItems}`,
      );
  };
}
