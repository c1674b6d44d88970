// TypeBox shapes for podcasts: what may be sent, and the public view.
import { t, type Static } from "elysia";
import { Cursor, Limit } from "../../http/pagination.ts";
import { Int, Nullable, oneOf } from "../../http/schema.ts";
import type { PodcastStatus } from "../../db/schema/index.ts";
import { PODCAST_FORMATS } from "../../podcast-formats.ts";

const SourceId = t.String({ pattern: "^src_[0-9A-Z]{26}$", description: "A source id (src_…)" });
const NotebookId = t.String({ pattern: "^nb_[0-9A-Z]{26}$", description: "A notebook id (nb_…)" });

export const MAX_SOURCES = 20;

export const PODCAST_STATUSES = ["queued", "generating", "ready", "failed"] as const;
// The table's column lists the same statuses; a status added to one and not the other fails to compile.
const sameStatuses: [PodcastStatus, (typeof PODCAST_STATUSES)[number]] extends [
  (typeof PODCAST_STATUSES)[number],
  PodcastStatus,
]
  ? true
  : never = true;
void sameStatuses;

export const PodcastCreate = t.Object(
  {
    format: t.Optional(
      oneOf(PODCAST_FORMATS, {
        description: "The preset: solo_expert, deep_dive (default), brief, critique, debate, unabridged",
      }),
    ),
    source_ids: t.Optional(
      t.Array(SourceId, {
        minItems: 1,
        maxItems: MAX_SOURCES,
        uniqueItems: true,
        description: "Ready sources of yours; or give notebook_id",
      }),
    ),
    notebook_id: t.Optional(NotebookId),
    title: t.Optional(
      t.String({ minLength: 1, maxLength: 500, description: "Defaults to the source's title or the notebook's name" }),
    ),
    language: t.Optional(
      t.String({
        pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
        maxLength: 35,
        description: "BCP 47 tag (en, fr, pt-BR); defaults to the source's language, else en",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PodcastCreate = Static<typeof PodcastCreate>;

export const PodcastListQuery = t.Object(
  { limit: t.Optional(Limit()), cursor: t.Optional(Cursor), status: t.Optional(oneOf(PODCAST_STATUSES)) },
  { additionalProperties: false },
);

export const TranscriptTurn = t.Object({ speaker: t.String(), text: t.String() });
export type TranscriptTurn = Static<typeof TranscriptTurn>;

export const PodcastPublic = t.Object({
  id: t.String(),
  title: t.String(),
  format: oneOf(PODCAST_FORMATS),
  language: t.String(),
  status: oneOf(PODCAST_STATUSES, { description: "queued → generating → ready | failed" }),
  error: Nullable(
    t.String({
      description: "Why generation failed: script_invalid, speech_failed, insufficient_credit, no_content, …",
    }),
  ),
  error_detail: Nullable(t.String()),
  duration_seconds: Nullable(t.Number({ description: "Measured from the audio; set when ready" })),
  source_ids: t.Array(t.String()),
  notebook_id: Nullable(t.String()),
  speakers: t.Array(t.Object({ name: t.String(), role: t.String() })),
  audio_url: Nullable(t.String({ description: "audio/mpeg with Range support; set when ready" })),
  audio_bytes: Nullable(Int()),
  transcript: Nullable(t.Array(TranscriptTurn, { description: "Set once the script is written" })),
  credits_quoted: Int({ description: "Held at creation; the most this episode can cost" }),
  credits_used: Nullable(Int({ description: "Charged when ready; failed episodes cost nothing" })),
  created_at: t.String(),
  updated_at: t.String(),
});
export type PodcastPublic = Static<typeof PodcastPublic>;
