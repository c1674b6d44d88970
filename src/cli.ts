// Admin CLI for headless self-hosting; shares the database with running servers (SQLite in DATA_DIR with
// WAL + busy timeout, or PostgreSQL, where its changes reach their caches by NOTIFY at commit).
import { mkdirSync } from "node:fs";
import { ConfigError, loadConfig } from "./config.ts";
import { openConfiguredDatabase } from "./db/client.ts";
import { AppError } from "./errors.ts";
import { silentLogger } from "./log.ts";
import { createServices } from "./services.ts";
import { systemActor } from "./actor.ts";
import { exclusively } from "./db/exclusive.ts";
import { passwordFromStdin, PromptInterrupted, promptNewPassword, type PromptInput } from "./cli-password.ts";
import { COPY_SPEC, COPY_USAGE, runDbCopy } from "./db/copy-cli.ts";
import { formatQualityReport, qualityOptions } from "./features/search-quality/cli.ts";

const USAGE = `usage: bun run cli <command> [options]

commands:
  user:create --email E [--name N]                create a user (ignores ALLOW_SIGNUP); the password is
              [--password-stdin | --password P]   read from standard input with --password-stdin, asked
                                                  for without echo on a terminal, or given with
                                                  --password (visible in the process list and history)
  key:create  --email E --name N                  create an API key; prints it once, alone on its line
  key:list    --email E                           list a user's keys (id, name, hint, created, last used, revoked)
  key:revoke  --id key_…                          revoke a key at once
  plan:set    --email E --plan ID                 put a user on a plan from the configured plans
  search-quality --email E [--sample N] [--seed S]
                                                  measure how well search finds the user's own sources:
                                                  known-item queries from N (default 50) sources drawn
                                                  with seed S; prints recall@1/@5 per mode and kind
                                                  (not stored; Settings → Search quality keeps runs)
${COPY_USAGE}`;

const SPEC: Record<string, { required: string[]; optional?: string[]; flags?: string[] }> = {
  "user:create": { required: ["email"], optional: ["password", "name"], flags: ["password-stdin"] },
  "key:create": { required: ["email", "name"] },
  "key:list": { required: ["email"] },
  "key:revoke": { required: ["id"] },
  "plan:set": { required: ["email", "plan"] },
  "search-quality": { required: ["email"], optional: ["sample", "seed"] },
  "db:copy": COPY_SPEC,
};

class UsageError extends Error {}

export function parseArgs(argv: string[]): { command: string; opts: Record<string, string> } {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") throw new UsageError("");
  const spec = SPEC[command];
  if (!spec) throw new UsageError(`unknown command "${command}"`);
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument "${arg}"`);
    const name = m[1]!;
    if (spec.flags?.includes(name) && m[2] === undefined) {
      opts[name] = "true";
      continue;
    }
    if (![...spec.required, ...(spec.optional ?? [])].includes(name))
      throw new UsageError(`${command} does not take --${name}`);
    const value = m[2] ?? rest[++i];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
    opts[name] = value;
  }
  for (const r of spec.required) if (!(r in opts)) throw new UsageError(`${command} needs --${r}`);
  if ("password" in opts && "password-stdin" in opts)
    throw new UsageError("give either --password or --password-stdin, not both");
  return { command, opts };
}

/** How the CLI reaches standard input; a terminal only when stdin is one (then it can prompt). */
export interface CliInput {
  readStdin(): Promise<string>;
  terminal: { input: PromptInput; output: { write(s: string): unknown } } | null;
}

const processInput = (): CliInput => ({
  readStdin: () => Bun.stdin.text(),
  terminal: process.stdin.isTTY ? { input: process.stdin, output: process.stderr } : null,
});

/** --password, else --password-stdin, else a prompt without echo on a terminal. */
async function passwordOf(opts: Record<string, string>, io: CliInput): Promise<string> {
  if (opts.password !== undefined) return opts.password;
  if (opts["password-stdin"]) return passwordFromStdin(io.readStdin);
  if (!io.terminal) throw new UsageError("user:create needs --password-stdin (or a terminal to ask on, or --password)");
  try {
    return await promptNewPassword(io.terminal.input, io.terminal.output);
  } catch (e) {
    if (e instanceof PromptInterrupted) throw e;
    throw new UsageError((e as Error).message);
  }
}

export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> | undefined,
  out: (line: string) => void,
  io: CliInput = processInput(),
): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  let password: string | undefined;
  try {
    parsed = parseArgs(argv);
    // Asked for before the database opens, so a prompt never holds anything open.
    if (parsed.command === "user:create") password = await passwordOf(parsed.opts, io);
    if (parsed.command === "search-quality") qualityOptions(parsed.opts, (m) => new UsageError(m));
  } catch (e) {
    if (e instanceof PromptInterrupted) return 130;
    if (e instanceof UsageError) {
      if (e.message) out(`error: ${e.message}`);
      out(USAGE);
      return 2;
    }
    throw e;
  }
  const config = loadConfig(env);
  // Reads DATA_DIR's SQLite file and writes to --to, whatever DATABASE_URL says: no services needed.
  if (parsed.command === "db:copy") return runDbCopy(parsed.opts, config, out);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const db = openConfiguredDatabase(config);
  const s = createServices({ config, db, logger: silentLogger });
  const { command, opts } = parsed;
  try {
    // As the server does at start: a lookup by email must find rows stored before emails were canonical.
    await exclusively(db, "accounts:normalise-emails", () => s.accounts.normaliseStoredEmails(silentLogger));
    switch (command) {
      case "user:create": {
        const u = await s.accounts.createUser(
          { email: opts.email!, password: password!, name: opts.name },
          { bypassSignupPolicy: true },
        );
        out(`created user ${u.id} <${u.email}>`);
        break;
      }
      case "key:create": {
        const u = await s.accounts.userByEmail(opts.email!);
        if (!opts.name!.trim()) throw new UsageError("--name must not be empty");
        const { key, row } = await s.keys.create(u.id, opts.name!);
        out(key);
        out(`# ${row.id} "${row.name}" for ${u.email}; this is the only time the key is shown`);
        break;
      }
      case "key:list": {
        const u = await s.accounts.userByEmail(opts.email!);
        const rows = await s.keys.listRows(systemActor(u.id, "cli"), { limit: 1000, includeRevoked: true });
        out(["id", "name", "hint", "created_at", "last_used_at", "revoked_at"].join("\t"));
        for (const r of rows)
          out([r.id, r.name, r.hint, r.createdAt, r.lastUsedAt ?? "-", r.revokedAt ?? "-"].join("\t"));
        break;
      }
      case "key:revoke": {
        const r = await s.keys.revoke(null, opts.id!);
        out(`revoked ${r.id} "${r.name}"`);
        break;
      }
      case "plan:set": {
        const u = await s.accounts.userByEmail(opts.email!);
        await s.accounts.setPlan(u.id, opts.plan!);
        out(`${u.email} is now on plan ${opts.plan}`);
        break;
      }
      case "search-quality": {
        const u = await s.accounts.userByEmail(opts.email!);
        const o = qualityOptions(opts, (m) => new UsageError(m));
        const report = await s.searchQuality.evaluate(systemActor(u.id, "cli"), o);
        for (const line of formatQualityReport(u.email, report)) out(line);
        break;
      }
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      out(`error: ${e.message}`);
      return 2;
    }
    if (e instanceof AppError) {
      out(`error: ${e.detail ?? e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await db.end();
  }
}

if (import.meta.main) {
  // Files this process creates (database, its -wal/-shm, exports) are for this user only.
  process.umask(0o077);
  try {
    const code = await runCli(process.argv.slice(2), undefined, (l) => console.log(l));
    process.exit(code);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`commonplace: invalid configuration: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}
