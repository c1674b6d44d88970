// The only reader of the environment: every variable is parsed, validated and frozen here once.
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";

export const PlanSchema = T.Object({
  id: T.String({ pattern: "^[a-z0-9_-]{1,40}$" }),
  name: T.String({ minLength: 1, maxLength: 80 }),
  monthly_credits: T.Integer({ minimum: 0 }),
});
export type Plan = Static<typeof PlanSchema>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return def;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return def;
  const v = raw.toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, def: string | undefined): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return def;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!["http:", "https:"].includes(parsed.protocol)) throw new ConfigError(name, "must be an http or https URL");
  return raw.replace(/\/+$/, "");
}

function smtpUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL like smtp://user:pass@host:587, got "${raw}"`);
  }
  if (!["smtp:", "smtps:"].includes(parsed.protocol))
    throw new ConfigError(name, "must start with smtp:// or smtps://");
  return raw;
}

function email(env: Env, name: string, def: string): string {
  const raw = read(env, name) ?? def;
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(raw) && !/^[^<>\r\n]*<[^\s@<>"]+@[^\s@<>"]+>$/.test(raw)) {
    throw new ConfigError(name, `must be an email address, got "${raw}"`);
  }
  return raw;
}

function hostList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const hosts = raw
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of hosts) {
    if (!/^[a-z0-9.\-:[\]]+$/.test(h)) throw new ConfigError(name, `"${h}" is not a host name`);
  }
  return hosts;
}

function plans(env: Env, defaultCredits: number): { plans: Plan[]; defaultPlanId: string } {
  const raw = read(env, "PLANS");
  const builtin: Plan = { id: "free", name: "Free", monthly_credits: defaultCredits };
  if (raw === undefined) {
    const wanted = read(env, "DEFAULT_PLAN") ?? "free";
    if (wanted !== "free")
      throw new ConfigError("DEFAULT_PLAN", `no plan with id "${wanted}" (without PLANS the only plan is "free")`);
    return { plans: [builtin], defaultPlanId: "free" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("PLANS", 'must be a JSON array like [{"id":"pro","name":"Pro","monthly_credits":1000}]');
  }
  const schema = T.Array(PlanSchema, { minItems: 1 });
  if (!Value.Check(schema, parsed)) {
    const first = [...Value.Errors(schema, parsed)][0];
    throw new ConfigError("PLANS", `${first?.path || "/"} ${first?.message ?? "is invalid"}`);
  }
  const list = parsed as Plan[];
  if (!list.some((p) => p.id === "free")) list.unshift(builtin);
  const ids = new Set<string>();
  for (const p of list) {
    if (ids.has(p.id)) throw new ConfigError("PLANS", `plan id "${p.id}" appears twice`);
    ids.add(p.id);
  }
  const defaultPlanId = read(env, "DEFAULT_PLAN") ?? "free";
  if (!ids.has(defaultPlanId)) throw new ConfigError("DEFAULT_PLAN", `no plan with id "${defaultPlanId}"`);
  return { plans: list, defaultPlanId };
}

function blobs(env: Env) {
  const kind = read(env, "BLOB_STORE") ?? "fs";
  if (kind !== "fs" && kind !== "s3") throw new ConfigError("BLOB_STORE", `must be fs or s3; got "${kind}"`);
  const s3 = {
    endpoint: url(env, "S3_ENDPOINT", undefined),
    bucket: read(env, "S3_BUCKET"),
    region: read(env, "S3_REGION"),
    accessKeyId: read(env, "S3_ACCESS_KEY_ID"),
    secretAccessKey: read(env, "S3_SECRET_ACCESS_KEY"),
  };
  if (kind === "s3") {
    if (!s3.bucket) throw new ConfigError("S3_BUCKET", "is required when BLOB_STORE=s3");
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3.bucket))
      throw new ConfigError("S3_BUCKET", `must be an S3 bucket name (3–63 of a-z 0-9 . -), got "${s3.bucket}"`);
    if (s3.region !== undefined && !/^[a-z0-9-]{1,40}$/.test(s3.region))
      throw new ConfigError("S3_REGION", `must look like us-east-1, got "${s3.region}"`);
    // One without the other is a typo, not anonymous access; the secret itself is never echoed.
    if ((s3.accessKeyId === undefined) !== (s3.secretAccessKey === undefined))
      throw new ConfigError("S3_ACCESS_KEY_ID", "and S3_SECRET_ACCESS_KEY must be set together");
  }
  return { kind: kind as "fs" | "s3", s3 };
}

function database(env: Env) {
  const url = databaseUrl(env);
  const schema = databaseSchema(read(env, "DATABASE_SCHEMA") ?? "public");
  return {
    url,
    schema,
    /** Connections each process keeps open to PostgreSQL. */
    poolSize: int(env, "DATABASE_POOL_SIZE", 10, 1, 1_000),
    /** Vector search through pgvector when `CREATE EXTENSION vector` succeeds (auto), or never (off). */
    pgvector: pgvectorMode(read(env, "PGVECTOR") ?? "auto"),
  };
}

function pgvectorMode(raw: string): "auto" | "off" {
  const v = raw.toLowerCase();
  if (v !== "auto" && v !== "off") throw new ConfigError("PGVECTOR", `must be auto or off; got "${raw}"`);
  return v;
}

/** A DATABASE_SCHEMA value (also `db:copy --schema`): a plain lower-case identifier, never quoted wrongly. */
export function databaseSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError("DATABASE_SCHEMA", `must be a lower-case SQL identifier (a-z, 0-9, _), got "${schema}"`);
  }
  return schema;
}

/** DATABASE_URL: unset for SQLite, else a postgres:// (or postgresql://) URL. */
export function databaseUrl(env: Env = process.env): string | undefined {
  const raw = read(env, "DATABASE_URL");
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError("DATABASE_URL", "must be a postgres:// URL (or unset for SQLite in DATA_DIR)");
  }
  if (!["postgres:", "postgresql:"].includes(parsed.protocol)) {
    throw new ConfigError(
      "DATABASE_URL",
      `must be a postgres:// URL (or unset for SQLite in DATA_DIR), got ${parsed.protocol}//…`,
    );
  }
  return raw;
}

/** Reads the given variables, or the process environment (the only place it is read). */
export function loadConfig(env: Env = process.env) {
  const port = int(env, "PORT", 3000, 0, 65535);
  const baseUrl = url(env, "BASE_URL", `http://localhost:${port}`)!;
  const defaultCredits = int(env, "DEFAULT_MONTHLY_CREDITS", 500, 0, 1_000_000_000);
  const planConfig = plans(env, defaultCredits);
  const embedderKind = read(env, "EMBEDDER") ?? "builtin";
  if (embedderKind !== "builtin" && embedderKind !== "hashed") {
    throw new ConfigError("EMBEDDER", `must be builtin or hashed; got "${embedderKind}"`);
  }
  const logLevel = read(env, "LOG_LEVEL") ?? "info";
  if (!["debug", "info", "warn", "error", "silent"].includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `must be one of debug, info, warn, error, silent; got "${logLevel}"`);
  }
  const aiBaseUrl = url(env, "AI_BASE_URL", undefined);
  const config = {
    port,
    hostname: read(env, "HOST") ?? "0.0.0.0",
    dataDir: resolve(read(env, "DATA_DIR") ?? "./data"),
    baseUrl,
    secureCookies: baseUrl.startsWith("https://"),
    allowSignup: bool(env, "ALLOW_SIGNUP", true),
    logLevel: logLevel as "debug" | "info" | "warn" | "error" | "silent",
    http: {
      maxBodyBytes: int(env, "MAX_BODY_BYTES", 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      // Nesting of arrays and objects in any JSON body (API, webhooks, MCP, OAuth): deep enough for
      // real payloads (a workflow with five nested conditions needs ~20), far from stack limits.
      maxJsonDepth: int(env, "MAX_JSON_DEPTH", 64, 16, 1024),
      // Request line plus headers. The start scripts raise Bun's own parser limit to 64 KiB
      // (--max-http-header-size) so that this check, which answers problem+json, comes first.
      maxHeaderBytes: int(env, "MAX_HEADER_BYTES", 16 * 1024, 1024, 60 * 1024),
      // Seconds a connection may sit without traffic before the server closes it (Bun's own default
      // is 10; it caps the setting at 255). Only an accepted event stream is given longer.
      idleTimeoutSeconds: int(env, "HTTP_IDLE_TIMEOUT_SECONDS", 10, 1, 255),
    },
    rateLimit: {
      perMinute: int(env, "RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000),
      webhookPerMinute: int(env, "WEBHOOK_RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000),
      loginPerMinute: int(env, "LOGIN_RATE_LIMIT_PER_MINUTE", 10, 1, 10_000),
    },
    credits: {
      ...planConfig,
      askCost: int(env, "ASK_CREDIT_COST", 1, 0, 1_000_000),
      podcastPerMinute: int(env, "PODCAST_CREDITS_PER_MINUTE", 2, 0, 1_000_000),
    },
    net: {
      allowPrivateNetwork: bool(env, "ALLOW_PRIVATE_NETWORK", false),
      allowedHosts: hostList(env, "ALLOWED_HOSTS"),
      maxBytes: int(env, "FETCH_MAX_BYTES", 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      timeoutMs: int(env, "FETCH_TIMEOUT_MS", 15_000, 100, 600_000),
      connectTimeoutMs: int(env, "FETCH_CONNECT_TIMEOUT_MS", 5_000, 100, 600_000),
    },
    jobs: {
      /** false: this process serves HTTP only and leaves jobs to the processes that run them (scale-out). */
      run: bool(env, "JOB_RUNNER", true),
      concurrency: int(env, "JOB_CONCURRENCY", 4, 1, 256),
      leaseMs: int(env, "JOB_LEASE_MS", 60_000, 1_000, 3_600_000),
      pollMs: int(env, "JOB_POLL_MS", 500, 10, 60_000),
    },
    workflows: {
      maxActions: int(env, "WORKFLOW_MAX_ACTIONS", 50, 1, 1000),
      maxConditionDepth: int(env, "WORKFLOW_MAX_CONDITION_DEPTH", 5, 1, 50),
      webhookMaxBytes: int(env, "WEBHOOK_MAX_BYTES", 1024 * 1024, 1024, 100 * 1024 * 1024),
      runRetentionDays: int(env, "RUN_RETENTION_DAYS", 30, 1, 36500),
    },
    ai: {
      baseUrl: aiBaseUrl,
      apiKey: read(env, "AI_API_KEY"),
      chatModel: read(env, "AI_CHAT_MODEL"),
      embeddingModel: read(env, "AI_EMBEDDING_MODEL"),
      ttsModel: read(env, "AI_TTS_MODEL"),
      timeoutMs: int(env, "AI_TIMEOUT_MS", 60_000, 100, 3_600_000),
      /** The offline embedder: "builtin" (neural encoder + hashed features) or "hashed" (lexical only, for tiny machines). */
      embedder: embedderKind as "builtin" | "hashed",
      /** The neural encoder's worker (and its ~300–600 MB) is released after this long without work. */
      embedderIdleMs: int(env, "EMBEDDER_IDLE_MS", 120_000, 100, 86_400_000),
      /** Owners' binary vector codes kept in memory for fast vector search (~200 bytes per chunk). */
      vectorMemoryMb: int(env, "VECTOR_MEMORY_MB", 256, 0, 65_536),
    },
    mail: {
      smtpUrl: smtpUrl(env, "SMTP_URL"),
      from: email(env, "MAIL_FROM", "Commonplace <commonplace@localhost>"),
    },
    feeds: {
      hostSpacingMs: int(env, "FEED_HOST_SPACING_MS", 250, 0, 60_000),
    },
    /** The archived copy's images, fetched at ingestion through the SSRF guard and kept in the blob store. */
    images: {
      /** Article images kept per source (the preview image comes on top); 0 keeps none. */
      maxPerSource: int(env, "IMAGES_MAX_PER_SOURCE", 20, 0, 500),
      maxBytes: int(env, "IMAGES_MAX_BYTES", 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      maxTotalBytes: int(env, "IMAGES_MAX_TOTAL_BYTES", 40 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      timeoutMs: int(env, "IMAGES_TIMEOUT_MS", 10_000, 100, 600_000),
      /** The whole image step of one ingestion: what is not in by then is left out. */
      totalTimeoutMs: int(env, "IMAGES_TOTAL_TIMEOUT_MS", 20_000, 100, 600_000),
      /** Width × height an image may declare before it is decoded (decompression bombs). */
      maxPixels: int(env, "IMAGES_MAX_PIXELS", 40_000_000, 1_000, 1_000_000_000),
    },
    /** The periodic check of each ready source's original address (never deletes anything). */
    linkCheck: {
      /** How often each source is checked; 0 turns the check off. */
      intervalHours: int(env, "LINK_CHECK_INTERVAL_HOURS", 168, 0, 87_600),
      /** Minimum gap between two checks of one host, across processes. */
      hostSpacingMs: int(env, "LINK_CHECK_HOST_SPACING_MS", 5_000, 0, 600_000),
    },
    events: {
      /**
       * A comment line on every open event stream this often, so proxies and clients see it alive. At
       * most 2 minutes: a stream's idle timeout is twice this, and Bun allows 255 s at most.
       */
      heartbeatMs: int(env, "EVENTS_HEARTBEAT_MS", 15_000, 10, 120_000),
      maxStreamsPerUser: int(env, "EVENTS_MAX_STREAMS_PER_USER", 20, 1, 10_000),
    },
    extract: {
      // Two threads suit a small machine: hostile pages wait for each other, never for HTTP.
      workers: int(env, "EXTRACT_WORKERS", 2, 0, 64),
      timeoutMs: int(env, "EXTRACT_TIMEOUT_MS", 20_000, 100, 600_000),
      maxMemoryMb: int(env, "EXTRACT_MAX_MEMORY_MB", 256, 0, 65_536),
      maxDepth: int(env, "EXTRACT_MAX_DEPTH", 256, 16, 100_000),
      maxPdfPages: int(env, "EXTRACT_MAX_PDF_PAGES", 500, 1, 1_000_000),
    },
    /** Where files (podcast audio) live: DATA_DIR on this disk, or an S3-compatible bucket. */
    blobs: blobs(env),
    /** SQLite in DATA_DIR (embedded default), or PostgreSQL when DATABASE_URL is set. */
    database: database(env),
    capture: {
      /** The most bytes of UTF-8 a saved page's `html` may have (the extension's rendered page). */
      maxHtmlBytes: int(env, "CAPTURE_MAX_HTML_BYTES", 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      /** Where `bun run build:extension` leaves the packed extensions served under /extension/. */
      extensionDistDir: resolve(read(env, "EXTENSION_DIST_DIR") ?? "./dist/extension"),
    },
    imports: {
      maxBytes: int(env, "IMPORT_MAX_BYTES", 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxItems: int(env, "IMPORT_MAX_ITEMS", 100_000, 1, 10_000_000),
      /** Reading one file (in its own thread) is stopped past this time or this growth of memory. */
      parseTimeoutMs: int(env, "IMPORT_PARSE_TIMEOUT_MS", 10_000, 100, 600_000),
      parseMaxMemoryMb: int(env, "IMPORT_PARSE_MAX_MEMORY_MB", 128, 0, 65_536),
      fetchConcurrency: int(env, "IMPORT_FETCH_CONCURRENCY", 2, 1, 64),
      hostSpacingMs: int(env, "IMPORT_HOST_SPACING_MS", 1_000, 0, 600_000),
      /** Longest an import's next slice waits for links being saved by hand (their fetch and embedding). */
      yieldMaxMs: int(env, "IMPORT_YIELD_MAX_MS", 250, 0, 600_000),
    },
  };
  return deepFreeze(config);
}

export type Config = ReturnType<typeof loadConfig>;

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** Config for tests: embedded defaults plus overrides, never the process environment. */
export function testConfig(overrides: Env = {}): Config {
  const dataDir = join(tmpdir(), `commonplace-test-${crypto.randomUUID()}`);
  // Tests that do not care about meaning use the fast hashed embedder; the neural one has its own tests.
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ALLOW_PRIVATE_NETWORK: "true",
    EMBEDDER: "hashed",
    ...overrides,
  });
}
