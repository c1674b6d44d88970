// The admin CLI as a self-hoster runs it: a subprocess over a data directory, also while the server runs.
import { afterAll, describe, expect, test } from "bun:test";
import { run, startServer, tempDir, type ServerProcess } from "./server-process.ts";

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
    for (const args of [[], ["frobnicate"], ["key:create", "--email", email], ["key:list", "--email"], ["key:list", "--mail", email], ["key:list", email]]) {
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
