// The ordered list of SQL migrations, imported as text so a compiled binary carries them.
import m0001 from "./0001_foundation.sql" with { type: "text" };

export const migrations: { name: string; sql: string }[] = [
  { name: "0001_foundation", sql: m0001 },
];
