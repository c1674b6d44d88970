// How the watch_feed action is filled in and what it leaves for later steps (the editor renders it from this).
import { notebookIdsField, type FieldSpec } from "../workflows/actions/fields.ts";

const fields: FieldSpec[] = [
  {
    key: "feed_url",
    label: "Feed URL",
    kind: "text",
    required: true,
    hint: "RSS, Atom, JSON Feed, a page that advertises a feed, or a video channel.",
  },
  {
    key: "schedule",
    label: "Schedule (cron)",
    kind: "text",
    placeholder: "*/30 * * * *",
    hint: "Default every 30 minutes; polls are at least 5 minutes apart.",
    half: true,
  },
  {
    key: "backfill",
    label: "Backfill",
    kind: "int",
    hint: "How many of the newest entries the first poll saves (default 0).",
    half: true,
  },
  notebookIdsField,
];

export const watchFeedForm = {
  title: "Watch a feed",
  idBase: "watch",
  fields,
  outputs: ["feed_id", "feed_url", "title", "new_entries", "sources", "sources.*", "poll_status", "error"],
  summary: (a: Record<string, unknown>) => (typeof a.feed_url === "string" ? a.feed_url : ""),
};
