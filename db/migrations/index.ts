// The ordered list of SQL migrations, imported as text so a compiled binary carries them.
import m0001 from "./0001_foundation.sql" with { type: "text" };
import m0002 from "./0002_jobs.sql" with { type: "text" };
import m0003 from "./0003_library.sql" with { type: "text" };
import m0004 from "./0004_search.sql" with { type: "text" };
import m0005 from "./0005_workflows.sql" with { type: "text" };
import m0006 from "./0006_feeds_mail.sql" with { type: "text" };
import m0007 from "./0007_podcasts.sql" with { type: "text" };
import m0008 from "./0008_oauth.sql" with { type: "text" };
import m0009 from "./0009_import_export.sql" with { type: "text" };
import m0010 from "./0010_import_pages.sql" with { type: "text" };
import m0011 from "./0011_events_outbox_claims.sql" with { type: "text" };
import m0012 from "./0012_mail_outbox.sql" with { type: "text" };
import m0013 from "./0013_source_capture.sql" with { type: "text" };
import m0014 from "./0014_reading_state.sql" with { type: "text" };
import m0015 from "./0015_highlights.sql" with { type: "text" };
import m0016 from "./0016_source_images.sql" with { type: "text" };
import m0017 from "./0017_library_triage.sql" with { type: "text" };
import m0019 from "./0019_feed_subscriptions.sql" with { type: "text" };
import m0020 from "./0020_tag_suggestions.sql" with { type: "text" };
import m0021 from "./0021_search_quality.sql" with { type: "text" };
import m0022 from "./0022_link_check_due.sql" with { type: "text" };
import m0023 from "./0023_source_tags.sql" with { type: "text" };
import m0024 from "./0024_blob_references.sql" with { type: "text" };

export const migrations: { name: string; sql: string }[] = [
  { name: "0001_foundation", sql: m0001 },
  { name: "0002_jobs", sql: m0002 },
  { name: "0003_library", sql: m0003 },
  { name: "0004_search", sql: m0004 },
  { name: "0005_workflows", sql: m0005 },
  { name: "0006_feeds_mail", sql: m0006 },
  { name: "0007_podcasts", sql: m0007 },
  { name: "0008_oauth", sql: m0008 },
  { name: "0009_import_export", sql: m0009 },
  { name: "0010_import_pages", sql: m0010 },
  { name: "0011_events_outbox_claims", sql: m0011 },
  { name: "0012_mail_outbox", sql: m0012 },
  { name: "0013_source_capture", sql: m0013 },
  { name: "0014_reading_state", sql: m0014 },
  { name: "0015_highlights", sql: m0015 },
  { name: "0016_source_images", sql: m0016 },
  { name: "0017_library_triage", sql: m0017 },
  { name: "0019_feed_subscriptions", sql: m0019 },
  { name: "0020_tag_suggestions", sql: m0020 },
  { name: "0021_search_quality", sql: m0021 },
  { name: "0022_link_check_due", sql: m0022 },
  { name: "0023_source_tags", sql: m0023 },
  { name: "0024_blob_references", sql: m0024 },
];
