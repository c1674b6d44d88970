// Every drizzle table, one file each; repos import from here.
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
