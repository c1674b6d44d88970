// The PostgreSQL twins of src/db/schema, same export names. Not used at run time yet (see docs/postgres.md).
// Not twinned yet (raw SQL, no drizzle table on either side): jobs, chunks, embedding_models,
// chunk_vectors; SQLite-only virtual tables: chunks_fts (FTS5) and the per-model vec0 tables.
export * from "./users.ts";
export * from "./sessions.ts";
export * from "./api-keys.ts";
export * from "./credit-ledger.ts";
export * from "./idempotency-keys.ts";
export * from "./sources.ts";
export * from "./notebooks.ts";
export * from "./notebook-sources.ts";
export * from "./notes.ts";
export * from "./note-sources.ts";
export * from "./events.ts";
export * from "./webhook-tokens.ts";
export * from "./workflows.ts";
export * from "./webhook-deliveries.ts";
export * from "./workflow-runs.ts";
export * from "./workflow-steps.ts";
export * from "./oauth-clients.ts";
export * from "./oauth-grants.ts";
export * from "./oauth-codes.ts";
export * from "./oauth-tokens.ts";
export * from "./podcasts.ts";
export * from "./podcast-quick-sources.ts";
export * from "./feed-watches.ts";
export * from "./feed-entries.ts";
export * from "./imports.ts";
export * from "./mail-outbox.ts";
