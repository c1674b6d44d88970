// The ordered PostgreSQL migrations, imported as text so a compiled binary carries them.
import m0001 from "./0001_init.sql" with { type: "text" };
import m0002 from "./0002_jobs.sql" with { type: "text" };
import m0003 from "./0003_shared_state.sql" with { type: "text" };
import m0004 from "./0004_mail_outbox.sql" with { type: "text" };
import m0005 from "./0005_feeds.sql" with { type: "text" };
import m0006 from "./0006_search.sql" with { type: "text" };
import m0007 from "./0007_search_stats.sql" with { type: "text" };
import m0008 from "./0008_source_capture.sql" with { type: "text" };
import m0009 from "./0009_reading_state.sql" with { type: "text" };
import m0010 from "./0010_highlights.sql" with { type: "text" };
import m0011 from "./0011_source_images.sql" with { type: "text" };
import m0012 from "./0012_library_triage.sql" with { type: "text" };
import m0014 from "./0014_feed_subscriptions.sql" with { type: "text" };
import m0015 from "./0015_tag_suggestions.sql" with { type: "text" };
import m0016 from "./0016_search_quality.sql" with { type: "text" };
import m0017 from "./0017_link_check_due.sql" with { type: "text" };
import m0018 from "./0018_source_tags.sql" with { type: "text" };
import m0019 from "./0019_blob_references.sql" with { type: "text" };

export const pgMigrations: { name: string; sql: string }[] = [
  { name: "0001_init", sql: m0001 },
  { name: "0002_jobs", sql: m0002 },
  { name: "0003_shared_state", sql: m0003 },
  { name: "0004_mail_outbox", sql: m0004 },
  { name: "0005_feeds", sql: m0005 },
  { name: "0006_search", sql: m0006 },
  { name: "0007_search_stats", sql: m0007 },
  { name: "0008_source_capture", sql: m0008 },
  { name: "0009_reading_state", sql: m0009 },
  { name: "0010_highlights", sql: m0010 },
  { name: "0011_source_images", sql: m0011 },
  { name: "0012_library_triage", sql: m0012 },
  { name: "0014_feed_subscriptions", sql: m0014 },
  { name: "0015_tag_suggestions", sql: m0015 },
  { name: "0016_search_quality", sql: m0016 },
  { name: "0017_link_check_due", sql: m0017 },
  { name: "0018_source_tags", sql: m0018 },
  { name: "0019_blob_references", sql: m0019 },
];
