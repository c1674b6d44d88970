// The admin CLI as a self-hoster runs it: a subprocess over a data directory, also while the server runs.
import { afterAll, describe, expect, test } from "bun:test";
import { dirname, join } from "node:path";
import { sqlRow } from "../src/db/inspect.ts";
import { childEnv, openChildDatabase, ROOT, run, startServer, tempDir, type ServerProcess } from "./server-process.ts";

const KEY_LINE = /^cpk_[0-9A-Za-z]{46}$/;
const PLANS = '[{"id":"pro","name":"Pro","monthly_credits":1000}]';
const dirs: { remove(): void }[] = [];
const servers: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const d of dirs) d.remove();
});

function newDataDir(): string {
  const d = tempDir("commonplace-cli-");
  dirs.push(d);
  return d.path;
}

function cli(dataDir: string, ...args: string[]) {
  return run([process.execPath, "run", "src/cli.ts", ...args], { DATA_DIR: dataDir, PLANS });
}

async function createKey(dataDir: string, email: string, name: string): Promise<{ key: string; id: string }> {
  const r = await cli(dataDir, "key:create", "--email", email, "--name", name);
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  const key = lines.find((l) => KEY_LINE.test(l));
  if (!key) throw new Error(`no key line in:\n${r.stdout}`);
  const id = /\b(key_[0-9A-Z]{26})\b/.exec(r.stdout)?.[1];
  if (!id) throw new Error(`no key id in:\n${r.stdout}`);
  return { key, id };
}

describe("admin CLI", () => {
  const dataDir = newDataDir();
  const email = "admin@example.com";
  let created: { key: string; id: string };

  test("user:create makes a user; the same email again fails with exit 1", async () => {
    const r = await cli(dataDir, "user:create", "--email", email, "--password", "correct horse battery");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/created user usr_[0-9A-Z]{26} <admin@example\.com>/);
    const again = await cli(dataDir, "user:create", "--email", email, "--password", "correct horse battery");
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("error:");
  }, 60_000);

  test("key:create prints the key alone on its own line, first", async () => {
    const r = await cli(dataDir, "key:create", "--email", email, "--name", "backup script");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(KEY_LINE);
    expect(lines.filter((l) => l.includes("cpk_"))).toEqual([lines[0]!]);
    created = { key: lines[0]!, id: /\b(key_[0-9A-Z]{26})\b/.exec(r.stdout)![1]! };
  }, 60_000);

  test("key:list shows the key by id, name and hint, never the key itself", async () => {
    const r = await cli(dataDir, "key:list", "--email", email);
    expect(r.code).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith(created.id));
    expect(row).toBeDefined();
    const [id, name, hint, , lastUsed, revoked] = row!.split("\t");
    expect([id, name, lastUsed, revoked]).toEqual([created.id, "backup script", "-", "-"]);
    expect(hint).toBe(`${created.key.slice(0, 8)}…${created.key.slice(-4)}`);
    expect(r.stdout).not.toContain(created.key);
  }, 60_000);

  test("key:revoke revokes the key and key:list shows when", async () => {
    const r = await cli(dataDir, "key:revoke", "--id", created.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`revoked ${created.id}`);
    const list = await cli(dataDir, "key:list", "--email", email);
    const row = list.stdout.split("\n").find((l) => l.startsWith(created.id))!;
    expect(row.split("\t")[5]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const missing = await cli(dataDir, "key:revoke", "--id", "key_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX");
    expect(missing.code).toBe(1);
  }, 60_000);

  test("plan:set moves the user to a configured plan; an unknown plan exits 1", async () => {
    const ok = await cli(dataDir, "plan:set", "--email", email, "--plan", "pro");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("is now on plan pro");
    const bad = await cli(dataDir, "plan:set", "--email", email, "--plan", "platinum");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("platinum");
    const nobody = await cli(dataDir, "plan:set", "--email", "nobody@example.com", "--plan", "pro");
    expect(nobody.code).toBe(1);
  }, 60_000);

  test("bad arguments print the usage and exit 2", async () => {
    for (const args of [
      [],
      ["frobnicate"],
      ["key:create", "--email", email],
      ["key:list", "--email"],
      ["key:list", "--mail", email],
      ["key:list", email],
    ]) {
      const r = await cli(dataDir, ...args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stdout).toContain("usage: bun run cli");
    }
  }, 60_000);
});

describe("the CLI while the server runs on the same data directory", () => {
  test("a key created by the CLI works at once, and is refused right after the CLI revokes it", async () => {
    const dataDir = newDataDir();
    const server = await startServer([process.execPath, "run", "src/main.ts"], { DATA_DIR: dataDir, PLANS });
    servers.push(server);
    const email = "live@example.com";
    expect((await cli(dataDir, "user:create", "--email", email, "--password", "password123")).code).toBe(0);
    const { key, id } = await createKey(dataDir, email, "live");
    const me = () => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });

    const ok = await me();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ email, auth: { type: "api_key", key_id: id, key_name: "live" } });
    // The server now holds the key in its cache; the revoke happens on another connection.
    expect((await me()).status).toBe(200);

    expect((await cli(dataDir, "key:revoke", "--id", id)).code).toBe(0);
    const after = await me();
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
  }, 60_000);
});

describe("user:create without the password on the command line", () => {
  /** Runs the CLI with `input` piped to its standard input. */
  async function cliWithStdin(dataDir: string, input: string, ...args: string[]) {
    const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", ...args], {
      cwd: ROOT,
      env: childEnv({ DATA_DIR: dataDir }),
      stdin: new Blob([input]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { code, stdout, stderr };
  }

  async function passwordHash(dataDir: string, email: string): Promise<string> {
    const db = openChildDatabase(dataDir);
    try {
      return (await sqlRow<{ h: string }>(db, "SELECT password_hash AS h FROM users WHERE email = ?", email))!.h;
    } finally {
      db.close();
      await db.end();
    }
  }

  test("--password-stdin reads it from a pipe and never prints it", async () => {
    const dataDir = newDataDir();
    const secret = "piped secret with spaces";
    const r = await cliWithStdin(
      dataDir,
      `${secret}\n`,
      "user:create",
      "--email",
      "pipe@example.com",
      "--password-stdin",
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(await Bun.password.verify(secret, await passwordHash(dataDir, "pipe@example.com"))).toBe(true);
    const both = await cliWithStdin(
      dataDir,
      "x\n",
      "user:create",
      "--email",
      "b@example.com",
      "--password-stdin",
      "--password",
      "y",
    );
    expect(both.code).toBe(2);
  }, 60_000);

  test("no password and no terminal to ask on: exit 2 naming --password-stdin", async () => {
    const r = await cliWithStdin(newDataDir(), "", "user:create", "--email", "none@example.com");
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("--password-stdin");
  }, 60_000);

  // `script` (util-linux) gives the CLI a real terminal; typing waits for each prompt, as a person would.
  test.skipIf(!Bun.which("script"))(
    "on a terminal it asks twice without echo",
    async () => {
      const dataDir = newDataDir();
      const secret = "typed at the prompt";
      const command = [process.execPath, "run", "src/cli.ts", "user:create", "--email", "tty@example.com"]
        .map((a) => `'${a}'`)
        .join(" ");
      const proc = Bun.spawn(["script", "-qefc", command, "/dev/null"], {
        cwd: ROOT,
        env: childEnv({ DATA_DIR: dataDir }),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      let seen = "";
      const decoder = new TextDecoder();
      const waitFor = async (reader: ReadableStreamDefaultReader<Uint8Array>, text: string, from: number) => {
        while (seen.indexOf(text, from) === -1) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`ended before "${text}":\n${seen}`);
          seen += decoder.decode(value, { stream: true });
        }
        return seen.indexOf(text, from) + text.length;
      };
      const reader = proc.stdout.getReader();
      const afterFirst = await waitFor(reader, "Password: ", 0);
      void proc.stdin.write(`${secret}\r`);
      await proc.stdin.flush();
      await waitFor(reader, "Repeat password: ", afterFirst);
      void proc.stdin.write(`${secret}\r`);
      await proc.stdin.flush();
      await waitFor(reader, "created user", 0);
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
      }
      expect(await proc.exited).toBe(0);
      expect(seen).not.toContain(secret);
      expect(await Bun.password.verify(secret, await passwordHash(dataDir, "tty@example.com"))).toBe(true);
    },
    60_000,
  );
});

describe("the README's Admin CLI example", () => {
  test("runs as written (except the interactive prompt and the placeholder key id)", async () => {
    const readme = await Bun.file(join(ROOT, "README.md")).text();
    const section = readme.slice(readme.indexOf("## Admin CLI"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const lines = block.split("\n").filter((l) => /--password-stdin|key:create|key:list|plan:set/.test(l));
    expect(lines).toHaveLength(4);
    const r = await run(["sh", "-ec", lines.join("\n")], {
      DATA_DIR: newDataDir(),
      PASSWORD: "a long password",
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("ada@example.com is now on plan pro");
  }, 60_000);
});
