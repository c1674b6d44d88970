// A source as clients see it: the public shape built from a row, its tags and its reading time.
import type { SourceRow } from "../../../db/schema/index.ts";
import type { SourcePublic } from "./schema.ts";

export type EmbeddingProgress = (ids: string[]) => Promise<Map<string, { done: number; total: number }>>;

function embeddingOf(
  row: SourceRow,
  p: { done: number; total: number } | undefined,
): NonNullable<SourcePublic["embedding"]> {
  const done = p?.done ?? 0;
  const total = p?.total ?? 0;
  // Without chunks there is nothing to embed, except for a source still being fetched.
  const status =
    total > 0
      ? done >= total
        ? "done"
        : done > 0
          ? "embedding"
          : "pending"
      : row.status === "pending"
        ? "pending"
        : "done";
  return { status, chunks_done: done, chunks_total: total };
}

export function toPublicSource(
  row: SourceRow,
  notebookIds: string[],
  includeContent = false,
  progress?: { done: number; total: number } | null,
): SourcePublic {
  const out: SourcePublic = {
    id: row.id,
    url: row.url,
    normalized_url: row.normalizedUrl,
    final_url: row.finalUrl,
    title: row.title,
    status: row.status,
    error: row.error,
    error_detail: row.errorDetail,
    content_type: row.contentType,
    byline: row.byline,
    site_name: row.siteName,
    language: row.language,
    published_at: row.publishedAt,
    excerpt: row.excerpt,
    word_count: row.wordCount,
    notebook_ids: notebookIds,
    generate_quick_podcast: row.generateQuickPodcast,
    podcast_format: row.podcastFormat,
    fetched_at: row.fetchedAt,
    saved_at: row.savedAt ?? row.createdAt,
    tags: parseTags(row.tags),
    suggested_tags: parseTags(row.suggestedTags).filter((t) => !parseTags(row.tags).includes(t)),
    archived: row.archived,
    favorite: row.favorite,
    read_at: row.readAt,
    progress: row.progress,
    reading_minutes: readingMinutes(row.wordCount),
    image_url: row.imageKey ? `/api/v1/sources/${row.id}/image` : null,
    original_status: row.originalStatus,
    original_checked_at: row.originalCheckedAt,
    capture: row.capture,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  if (includeContent) out.content = row.content;
  if (progress !== undefined) out.embedding = embeddingOf(row, progress ?? undefined);
  return out;
}

/** Words a minute of an adult reading for understanding (Brysbaert 2019, non-fiction). */
export const WORDS_PER_MINUTE = 238;

export function readingMinutes(words: number | null): number | null {
  return words === null || words <= 0 ? null : Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

export function parseTags(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}
