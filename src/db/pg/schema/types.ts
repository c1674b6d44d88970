// PostgreSQL column helpers for the twins: epoch-ms numbers, bytea buffers, JSON kept in text.
import { bigint, customType } from "drizzle-orm/pg-core";

/** Epoch milliseconds: int8 (past 2^31), read back as a JS number (exact up to 2^53, year 287396). */
export const epochMs = (name: string) => bigint(name, { mode: "number" });

/** Binary content (SQLite BLOB); pg-core 0.45 has no bytea builder. The driver adapter must hand back a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/** A JSON value stored as text, as the SQLite `text({ mode: "json" })` columns are (no jsonb yet). */
export const jsonText = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => JSON.parse(value) as T,
  })(name);
