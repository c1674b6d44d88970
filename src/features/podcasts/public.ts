// The public shape of an episode (what the API, MCP and events show) and where its audio lives.
import type { PodcastRow } from "../../db/schema/index.ts";
import { FORMATS, type PodcastFormat } from "./formats.ts";
import type { PodcastPublic } from "./schema.ts";

export const audioPathOf = (id: string) => `podcasts/${id}.mp3`;

export function toPublicPodcast(row: PodcastRow, baseUrl: string): PodcastPublic {
  const spec = FORMATS[row.format as PodcastFormat];
  return {
    id: row.id,
    title: row.title,
    format: row.format as PodcastFormat,
    language: row.language,
    status: row.status,
    error: row.error,
    error_detail: row.errorDetail,
    duration_seconds: row.durationSeconds === null ? null : Math.round(row.durationSeconds * 100) / 100,
    source_ids: row.sourceIds,
    notebook_id: row.notebookId,
    speakers: spec.speakers.map((s) => ({ name: s.name, role: s.role })),
    audio_url: row.status === "ready" ? `${baseUrl}/api/v1/podcasts/${row.id}/audio` : null,
    audio_bytes: row.status === "ready" ? row.audioBytes : null,
    transcript: row.transcript,
    credits_quoted: row.creditsQuoted,
    credits_used: row.creditsUsed,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
