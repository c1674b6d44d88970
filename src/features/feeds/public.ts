// The API's view of a watch: its settings and polling state, with whether it is polled on schedule.
import { iso } from "../../time.ts";
import type { WatchWithState } from "./repo.ts";
import type { FeedPublic } from "./schema.ts";

export function toPublicFeed(w: WatchWithState): FeedPublic {
  return {
    id: w.id,
    workflow_id: w.workflowId,
    feed_url: w.feedUrl,
    fetch_url: w.fetchUrl,
    title: w.title,
    schedule: w.schedule,
    notebook_ids: JSON.parse(w.notebookIds) as string[],
    backfill: w.backfill,
    active: w.active,
    paused: w.paused,
    status: w.consecutiveFailures > 0 ? "failing" : w.baselineAt ? "ok" : "pending",
    last_polled_at: w.lastPolledAt,
    last_success_at: w.lastSuccessAt,
    last_status: w.lastStatus,
    last_error: w.lastError,
    consecutive_failures: w.consecutiveFailures,
    next_poll_at: w.active ? iso(w.nextPollAt) : null,
    entries_seen: w.entriesSeen,
    sources_created: w.sourcesCreated,
    created_at: w.createdAt,
    updated_at: w.updatedAt,
  };
}
