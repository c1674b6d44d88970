// workflow_dispatch: how far the event dispatcher has read the events outbox (a single row).
import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

export const workflowDispatch = sqliteTable("workflow_dispatch", {
  id: integer("id").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});
