// Markdown export of a notebook: a zip (our streaming writer, fed page by page from the database)
// that opens as an Obsidian vault: index.md, sources/<slug>.md and notes/<slug>.md, each with YAML
// front matter.
import type { HighlightRow, NoteRow, SourceRow } from "../../../db/schema/index.ts";
import type { Actor } from "../../../actor.ts";
import type { HighlightsService } from "../highlights/service.ts";
import type { NotesService } from "../notes/service.ts";
import type { SourcesService } from "../sources/service.ts";
import type { NotebookWithCounts } from "./repo.ts";
import { zipStream, type ZipEntry } from "./zip-writer.ts";
import { slugify } from "../../../slug.ts";

/** Slugs unique within one export: a repeat gets -2, -3, …. */
export function uniqueSlugger() {
  const used = new Set<string>();
  return (text: string, fallback: string) => {
    const base = slugify(text, fallback);
    let slug = base;
    for (let i = 2; used.has(slug); i++) slug = `${base}-${i}`;
    used.add(slug);
    return slug;
  };
}

/** YAML front matter; values are JSON strings, which YAML reads as double-quoted scalars. */
export function frontMatter(fields: Record<string, string | number | null | undefined | string[]>): string {
  const lines = ["---"];
  for (const [k, v] of Object.entries(fields)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) {
      lines.push(`${k}:`);
      for (const item of v) lines.push(`  - ${JSON.stringify(item)}`);
    } else lines.push(`${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
  }
  lines.push("---", "");
  return lines.join("\n");
}

const mdLinkText = (s: string) => s.replace(/([\\[\]])/g, "\\$1");

/** What the export writes of a highlight. */
export type ExportHighlight = Pick<HighlightRow, "exact" | "note" | "orphaned">;

/** One page of a notebook's rows, newest first, older than `before` (an id) when given. */
export interface ExportPages {
  sources(before: string | undefined, limit: number): Promise<SourceRow[]>;
  notes(before: string | undefined, limit: number): Promise<NoteRow[]>;
  /** A source's highlights in text order (absent: the export has none). */
  highlights?(sourceId: string): Promise<ExportHighlight[]>;
}

/** Rows read per database query: enough to keep queries few, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 100;

async function* paged<T extends { id: string }>(
  read: (before: string | undefined, limit: number) => Promise<T[]>,
): AsyncGenerator<T> {
  let before: string | undefined;
  for (;;) {
    const rows = await read(before, EXPORT_PAGE_SIZE);
    yield* rows;
    if (rows.length < EXPORT_PAGE_SIZE) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** A source's highlights under its text: each a block quote, its note below it. */
export function highlightsSection(list: readonly ExportHighlight[]): string {
  if (list.length === 0) return "";
  const parts = ["## Highlights", ""];
  for (const h of list) {
    parts.push(`> ${h.exact}`, "");
    if (h.orphaned) parts.push("_No longer in the article since it was fetched again._", "");
    if (h.note) parts.push(`Note: ${h.note}`, "");
  }
  return `\n${parts.join("\n")}`;
}

function sourceFile(s: SourceRow, title: string, highlights: readonly ExportHighlight[] = []): string {
  const body =
    s.content ?? (s.status === "failed" ? `_This source could not be fetched: ${s.error}._` : "_Not fetched yet._");
  const meta = {
    title,
    url: s.url,
    author: s.byline,
    site: s.siteName,
    saved_at: s.createdAt,
    published_at: s.publishedAt,
    status: s.status,
    id: s.id,
  };
  return `${frontMatter(meta)}# ${title}\n\n${body}\n${highlightsSection(highlights)}`;
}

/**
 * The export's files, read page by page as the zip is pulled: one per source, one per note, and
 * index.md last (it lists them all, so only its lines, not the files' text, are kept meanwhile).
 */
export async function* notebookEntries(nb: NotebookWithCounts, pages: ExportPages): AsyncGenerator<ZipEntry> {
  const index: string[] = [frontMatter({ title: nb.name, exported_at: new Date().toISOString() }), `# ${nb.name}`, ""];
  if (nb.description) index.push(nb.description, "");

  index.push("## Sources", "");
  const slug = uniqueSlugger();
  let count = 0;
  for await (const s of paged(pages.sources)) {
    const title = s.title || s.url;
    const name = `sources/${slug(title, s.id.toLowerCase())}.md`;
    yield { name, data: sourceFile(s, title, (await pages.highlights?.(s.id)) ?? []) };
    index.push(`- [${mdLinkText(title)}](${encodeURI(name)})`);
    count++;
  }
  if (count === 0) index.push("_No sources._");

  index.push("", "## Notes", "");
  const noteSlug = uniqueSlugger();
  count = 0;
  for await (const n of paged(pages.notes)) {
    const title =
      n.title ||
      n.content
        .split("\n")
        .find((l) => l.trim())
        ?.replace(/^#+\s*/, "")
        .slice(0, 80) ||
      "Untitled note";
    const name = `notes/${noteSlug(title, n.id.toLowerCase())}.md`;
    yield {
      name,
      data: `${frontMatter({ title, created_at: n.createdAt, updated_at: n.updatedAt, id: n.id })}${n.content}\n`,
    };
    index.push(`- [${mdLinkText(title)}](${encodeURI(name)})`);
    count++;
  }
  if (count === 0) index.push("_No notes._");
  yield { name: "index.md", data: `${index.join("\n")}\n` };
}

/** Pages read through the services, as the actor (so another user's rows never appear). */
export function exportPages(
  s: {
    sources: Pick<SourcesService, "listRows">;
    notes: Pick<NotesService, "listRows">;
    highlights?: Pick<HighlightsService, "forSource">;
  },
  actor: Actor,
  notebookId: string,
): ExportPages {
  const highlights = s.highlights;
  return {
    sources: (before, limit) => s.sources.listRows(actor, { limit, before, notebookId }),
    notes: (before, limit) => s.notes.listRows(actor, { limit, before, notebookId }),
    highlights: highlights ? (sourceId) => highlights.forSource(actor, sourceId) : undefined,
  };
}

/** The export as a zip byte stream; memory stays flat however much text the notebook holds. */
export function notebookZip(nb: NotebookWithCounts, pages: ExportPages): ReadableStream<Uint8Array> {
  return zipStream(notebookEntries(nb, pages));
}
