// bun run lint:openapi — lints the OpenAPI document the server really serves with Spectral
// (.spectral.yaml, spectral:oas) and Redocly (redocly.yaml, recommended). Fails on any error;
// warnings are listed and counted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { openTestDatabase } from "../src/db/client.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";

const ROOT = resolve(import.meta.dir, "..");
// A public address, as on a real install (a loopback server URL is itself a lint warning).
const BASE_URL = "https://commonplace.home.arpa";

/** The document exactly as GET /api/openapi.json serves it, from an app over an in-memory database. */
export async function servedOpenApi(baseUrl = BASE_URL): Promise<Record<string, unknown>> {
  const db = openTestDatabase();
  try {
    const app = createApp(createServices({ config: testConfig({ BASE_URL: baseUrl }), db, logger: silentLogger }));
    const res = await app.handle(new Request(`${baseUrl}/api/openapi.json`));
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  } finally {
    db.close();
  }
}

interface Problem {
  severity: "error" | "warn" | "info" | "hint";
  rule: string;
  message: string;
  at: string;
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // --bun runs the linters on Bun rather than whichever Node the machine has.
  const proc = Bun.spawn([process.execPath, "x", "--bun", ...args], {
    cwd: ROOT,
    // Both linters stay offline: no telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
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

function parsed<T>(name: string, r: { code: number; stdout: string; stderr: string }): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${name} did not report (exit ${r.code}):\n${r.stdout}${r.stderr}`);
  }
}

const SPECTRAL_SEVERITY = ["error", "warn", "info", "hint"] as const;

export async function spectral(file: string): Promise<Problem[]> {
  const r = await run([
    "spectral",
    "lint",
    "--ruleset",
    join(ROOT, ".spectral.yaml"),
    "--format",
    "json",
    "--quiet",
    file,
  ]);
  const out = parsed<{ code: string; message: string; path: string[]; severity: number }[]>("spectral", r);
  return out.map((p) => ({
    severity: SPECTRAL_SEVERITY[p.severity]!,
    rule: p.code,
    message: p.message,
    at: p.path.join("."),
  }));
}

export async function redocly(file: string): Promise<Problem[]> {
  const r = await run(["redocly", "lint", "--config", join(ROOT, "redocly.yaml"), "--format", "json", file]);
  const out = parsed<{
    problems: { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] }[];
  }>("redocly", r);
  return out.problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    at: p.location[0]?.pointer ?? "",
  }));
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), "commonplace-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    await Bun.write(file, JSON.stringify(await servedOpenApi(), null, 2));
    const results = await Promise.all([spectral(file), redocly(file)]);
    let failed = false;
    for (const [name, problems] of [
      ["spectral", results[0]],
      ["redocly", results[1]],
    ] as const) {
      for (const p of problems) console.log(`${name}  ${p.severity.padEnd(5)}  ${p.rule}  ${p.message}  at ${p.at}`);
      const errors = problems.filter((p) => p.severity === "error").length;
      console.log(`${name}: ${errors} errors, ${problems.length - errors} warnings`);
      if (errors > 0) failed = true;
    }
    process.exitCode = failed ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
