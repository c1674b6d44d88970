// Which database errors are the database's passing trouble rather than the work's fault: a job that
// meets one should run again later, not record a permanent failure.

// PostgreSQL SQLSTATEs: serialisation failure and deadlock (left over once a transaction's own retries
// ran out), too many connections, the server shutting down or starting, and connection exceptions (08…).
const PG_TRANSIENT = new Set(["40001", "40P01", "53300", "57P01", "57P02", "57P03"]);
// The postgres driver's own codes for a connection it lost or could not open.
const DRIVER_TRANSIENT = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);
// SQLite: the writer lock was held past the busy timeout.
const SQLITE_TRANSIENT = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED"]);

/** True for an error (or the error it wraps, as drizzle does) that may pass if the work runs again later. */
export function isTransientDbError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (PG_TRANSIENT.has(code) || code.startsWith("08") || DRIVER_TRANSIENT.has(code) || SQLITE_TRANSIENT.has(code))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
