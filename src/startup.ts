// Start-up problems a self-hoster can fix, turned into one line each instead of a stack trace.
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A start-up failure with a message meant for the person starting the server. */
export class StartupError extends Error {
  override name = "StartupError";
}

const reason = (e: unknown): string => {
  const err = e as { code?: string; message?: string };
  const text = (err.message ?? String(e)).replace(/^[A-Z]+: /, "");
  return err.code && !text.includes(err.code) ? `${text} (${err.code})` : text;
};

/**
 * Creates DATA_DIR if needed — private to this user (0700), as it holds password hashes, tokens and the
 * library — and proves a file can be written there (a read-only mount, a file in the way).
 */
export function ensureWritableDataDir(dir: string): void {
  const probe = join(dir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(probe, "", { mode: 0o600 });
    rmSync(probe, { force: true });
  } catch (e) {
    throw new StartupError(`DATA_DIR ${dir} is not writable: ${reason(e)}`);
  }
}

/** A warning when DATA_DIR (one that existed before: a new one is 0700) lets other users of the machine in. */
export function dataDirExposure(dir: string): string | undefined {
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `DATA_DIR ${dir} is accessible to other users of this machine (mode ${mode.toString(8).padStart(3, "0")}); it holds the database and password hashes: run chmod 700 ${dir}`;
}

/** What Bun.serve's failure to listen means, in terms of PORT and HOST. */
export function listenError(e: unknown, port: number, hostname: string): StartupError {
  const code = (e as { code?: string }).code;
  if (code === "EADDRINUSE")
    return new StartupError(
      `PORT ${port} is already in use on ${hostname}; stop the other server or set PORT to a free port`,
    );
  if (code === "EACCES")
    return new StartupError(
      `PORT ${port} on ${hostname} needs privileges this process does not have; use a port above 1023`,
    );
  if (code === "EADDRNOTAVAIL") return new StartupError(`HOST ${hostname} is not an address of this machine`);
  return new StartupError(`cannot listen on ${hostname}:${port}: ${reason(e)}`);
}
