// Test helpers: an app over an in-memory database with the real migrations, users, keys and calls.
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { openTestDatabase } from "../src/db/client.ts";
import { sqlRows } from "../src/db/inspect.ts";
import { newId } from "../src/ids.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { createExtractor, type Extractor } from "../src/features/library/sources/extract/pool.ts";
import { createImportParser, type ImportParser } from "../src/features/imports/formats/parser.ts";
import type { Clock } from "../src/time.ts";
import type { Listeners } from "../src/features/feature.ts";
import type { ActionModule } from "../src/features/workflows/actions/types.ts";
import type { ImageEncoder } from "../src/features/library/sources/images/encode.ts";
import type { LookupFn } from "../src/net/policy.ts";

let fastHash: string | undefined;
let sharedExtractor: Extractor | undefined;
let sharedImportParser: ImportParser | undefined;

/**
 * Apps with the default extraction settings share one pool, so a test file that builds twenty apps
 * does not start forty threads. An app given EXTRACT_* variables gets its own pool; its test closes it.
 */
function extractorFor(env: Record<string, string>, config: ReturnType<typeof testConfig>): Extractor | undefined {
  if (Object.keys(env).some((k) => k.startsWith("EXTRACT_"))) return undefined;
  const { workers, timeoutMs, maxMemoryMb, maxDepth, maxPdfPages } = config.extract;
  sharedExtractor ??= createExtractor({ size: workers, timeoutMs, maxMemoryMb, limits: { maxDepth, maxPdfPages } });
  return sharedExtractor;
}

/** Likewise one import-parsing thread for every app with the default IMPORT_PARSE_* settings. */
function importParserFor(env: Record<string, string>, config: ReturnType<typeof testConfig>): ImportParser | undefined {
  if (Object.keys(env).some((k) => k.startsWith("IMPORT_PARSE_"))) return undefined;
  sharedImportParser ??= createImportParser({
    timeoutMs: config.imports.parseTimeoutMs,
    maxMemoryMb: config.imports.parseMaxMemoryMb,
  });
  return sharedImportParser;
}

export function createTestContext(
  env: Record<string, string> = {},
  opts: {
    clock?: Clock;
    extractor?: Extractor;
    listeners?: Listeners;
    actions?: readonly ActionModule[];
    imageEncoder?: ImageEncoder;
    lookup?: LookupFn;
  } = {},
) {
  const config = testConfig(env);
  const db = openTestDatabase();
  const extractor = opts.extractor ?? extractorFor(env, config);
  const services = createServices({
    config,
    db,
    logger: silentLogger,
    clock: opts.clock,
    extractor,
    importParser: importParserFor(env, config),
    listeners: opts.listeners,
    actions: opts.actions,
    imageEncoder: opts.imageEncoder,
    lookup: opts.lookup,
  });
  const app = createApp(services);
  return { config, db, services, app, queue: services.queue, runner: services.runner };
}
export type TestContext = ReturnType<typeof createTestContext>;

/** A user with a known password ("password123") and a fresh API key. */
export async function userWithKey(ctx: TestContext, email = `u${Math.random().toString(36).slice(2, 10)}@example.com`) {
  fastHash ??= await Bun.password.hash("password123", { algorithm: "argon2id", memoryCost: 4096, timeCost: 1 });
  const now = new Date(ctx.services.clock.now()).toISOString();
  const id = newId("user");
  await sqlRows(
    ctx.db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'free', ?, ?)",
    id,
    email,
    email.split("@")[0]!,
    fastHash,
    now,
    now,
  );
  const { key, row } = await ctx.services.keys.create(id, "test key");
  return { userId: id, email, key, keyId: row.id };
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(
  ctx: { app: { handle(r: Request): Promise<Response> | Response } },
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: BodyInit } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["authorization"] = `Bearer ${opts.key}`;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  // Real clients send Content-Length; the size guard relies on it.
  if (typeof body === "string") headers["content-length"] ??= String(Buffer.byteLength(body));
  const res = await ctx.app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
