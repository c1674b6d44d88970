// Config: defaults with an empty environment, one clear ConfigError per bad value, a frozen result.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ConfigError, loadConfig } from "./config.ts";

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig defaults", () => {
  test("an empty environment gives a working configuration", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.hostname).toBe("0.0.0.0");
    expect(c.dataDir).toBe(resolve("./data"));
    expect(c.baseUrl).toBe("http://localhost:3000");
    expect(c.secureCookies).toBe(false);
    expect(c.allowSignup).toBe(true);
    expect(c.logLevel).toBe("info");
    expect(c.rateLimit.perMinute).toBe(600);
    expect(c.rateLimit.webhookPerMinute).toBe(600);
    expect(c.credits.plans).toEqual([{ id: "free", name: "Free", monthly_credits: 500 }]);
    expect(c.credits.defaultPlanId).toBe("free");
    expect(c.net.allowPrivateNetwork).toBe(false);
    expect(c.ai.baseUrl).toBeUndefined();
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.http).toEqual({
      maxBodyBytes: 2 * 1024 * 1024,
      maxJsonDepth: 64,
      maxHeaderBytes: 16 * 1024,
      idleTimeoutSeconds: 10,
    });
    expect(c.events).toEqual({ heartbeatMs: 15_000, maxStreamsPerUser: 20 });
  });

  test("extraction runs in two threads with limits unless told otherwise", () => {
    expect(loadConfig({}).extract).toEqual({
      workers: 2,
      timeoutMs: 20_000,
      maxMemoryMb: 256,
      maxDepth: 256,
      maxPdfPages: 500,
    });
    const c = loadConfig({
      EXTRACT_WORKERS: "0",
      EXTRACT_TIMEOUT_MS: "5000",
      EXTRACT_MAX_MEMORY_MB: "0",
      EXTRACT_MAX_DEPTH: "64",
      EXTRACT_MAX_PDF_PAGES: "20",
    });
    expect(c.extract).toEqual({ workers: 0, timeoutMs: 5_000, maxMemoryMb: 0, maxDepth: 64, maxPdfPages: 20 });
  });

  test("blank values count as unset", () => {
    expect(loadConfig({ PORT: "  ", ALLOW_SIGNUP: "" }).port).toBe(3000);
  });

  test("valid values are parsed and normalised", () => {
    const c = loadConfig({
      PORT: "8080",
      BASE_URL: "https://notes.example.com/",
      ALLOW_SIGNUP: "off",
      DEFAULT_MONTHLY_CREDITS: "42",
      PLANS: '[{"id":"pro","name":"Pro","monthly_credits":1000}]',
      DEFAULT_PLAN: "pro",
      SMTP_URL: "smtp://u:p@mail.example.com:587",
    });
    expect(c.port).toBe(8080);
    expect(c.baseUrl).toBe("https://notes.example.com");
    expect(c.secureCookies).toBe(true);
    expect(c.allowSignup).toBe(false);
    expect(c.credits.plans.map((p) => [p.id, p.monthly_credits])).toEqual([
      ["free", 42],
      ["pro", 1000],
    ]);
    expect(c.credits.defaultPlanId).toBe("pro");
    expect(c.mail.smtpUrl).toBe("smtp://u:p@mail.example.com:587");
  });
});

describe("bad values stop with a ConfigError naming the variable", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["PORT not a number", { PORT: "abc" }, "PORT"],
    ["PORT out of range", { PORT: "70000" }, "PORT"],
    ["PORT negative", { PORT: "-1" }, "PORT"],
    ["ALLOW_SIGNUP not a boolean", { ALLOW_SIGNUP: "maybe" }, "ALLOW_SIGNUP"],
    ["BASE_URL not http", { BASE_URL: "ftp://x" }, "BASE_URL"],
    ["BASE_URL not a URL", { BASE_URL: "notes.example.com" }, "BASE_URL"],
    ["PLANS not JSON", { PLANS: "[{id:pro}" }, "PLANS"],
    ["PLANS not an array", { PLANS: '{"id":"pro","name":"Pro","monthly_credits":1}' }, "PLANS"],
    ["PLANS empty", { PLANS: "[]" }, "PLANS"],
    ["PLANS item without credits", { PLANS: '[{"id":"pro","name":"Pro"}]' }, "PLANS"],
    ["PLANS negative credits", { PLANS: '[{"id":"pro","name":"Pro","monthly_credits":-5}]' }, "PLANS"],
    [
      "PLANS duplicate id",
      { PLANS: '[{"id":"pro","name":"A","monthly_credits":1},{"id":"pro","name":"B","monthly_credits":2}]' },
      "PLANS",
    ],
    [
      "DEFAULT_PLAN unknown with PLANS",
      { PLANS: '[{"id":"pro","name":"Pro","monthly_credits":1}]', DEFAULT_PLAN: "gold" },
      "DEFAULT_PLAN",
    ],
    ["DEFAULT_PLAN unknown without PLANS", { DEFAULT_PLAN: "gold" }, "DEFAULT_PLAN"],
    ["SMTP_URL not a URL", { SMTP_URL: "mail.example.com:25" }, "SMTP_URL"],
    ["SMTP_URL wrong scheme", { SMTP_URL: "http://mail.example.com" }, "SMTP_URL"],
    ["LOG_LEVEL unknown", { LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    ["DEFAULT_MONTHLY_CREDITS fractional", { DEFAULT_MONTHLY_CREDITS: "1.5" }, "DEFAULT_MONTHLY_CREDITS"],
    ["MAX_JSON_DEPTH too shallow for workflows", { MAX_JSON_DEPTH: "4" }, "MAX_JSON_DEPTH"],
    ["MAX_HEADER_BYTES above the runtime's parser limit", { MAX_HEADER_BYTES: "70000" }, "MAX_HEADER_BYTES"],
    ["HTTP_IDLE_TIMEOUT_SECONDS above Bun's limit", { HTTP_IDLE_TIMEOUT_SECONDS: "256" }, "HTTP_IDLE_TIMEOUT_SECONDS"],
    [
      "EVENTS_HEARTBEAT_MS beyond half the longest idle timeout",
      { EVENTS_HEARTBEAT_MS: "200000" },
      "EVENTS_HEARTBEAT_MS",
    ],
    ["EVENTS_HEARTBEAT_MS too small", { EVENTS_HEARTBEAT_MS: "0" }, "EVENTS_HEARTBEAT_MS"],
    [
      "EVENTS_MAX_STREAMS_PER_USER not a number",
      { EVENTS_MAX_STREAMS_PER_USER: "many" },
      "EVENTS_MAX_STREAMS_PER_USER",
    ],
    ["EXTRACT_WORKERS negative", { EXTRACT_WORKERS: "-1" }, "EXTRACT_WORKERS"],
    ["EXTRACT_TIMEOUT_MS too small", { EXTRACT_TIMEOUT_MS: "10" }, "EXTRACT_TIMEOUT_MS"],
    ["EXTRACT_MAX_DEPTH not a number", { EXTRACT_MAX_DEPTH: "deep" }, "EXTRACT_MAX_DEPTH"],
    ["EXTRACT_MAX_PDF_PAGES zero", { EXTRACT_MAX_PDF_PAGES: "0" }, "EXTRACT_MAX_PDF_PAGES"],
    ["EXTRACT_MAX_MEMORY_MB fractional", { EXTRACT_MAX_MEMORY_MB: "1.5" }, "EXTRACT_MAX_MEMORY_MB"],
    ["BLOB_STORE unknown", { BLOB_STORE: "ftp" }, "BLOB_STORE"],
    ["BLOB_STORE=s3 without a bucket", { BLOB_STORE: "s3" }, "S3_BUCKET"],
    ["S3_BUCKET not a bucket name", { BLOB_STORE: "s3", S3_BUCKET: "My_Bucket" }, "S3_BUCKET"],
    ["S3_ENDPOINT not a URL", { BLOB_STORE: "s3", S3_BUCKET: "b1b", S3_ENDPOINT: "minio:9000" }, "S3_ENDPOINT"],
    ["S3_REGION malformed", { BLOB_STORE: "s3", S3_BUCKET: "b1b", S3_REGION: "us east" }, "S3_REGION"],
    ["S3 key id without secret", { BLOB_STORE: "s3", S3_BUCKET: "b1b", S3_ACCESS_KEY_ID: "AK" }, "S3_ACCESS_KEY_ID"],
  ];
  for (const [name, env, variable] of cases) {
    test(name, () => {
      const e = errorOf(env);
      expect(e.variable).toBe(variable);
      expect(e.message.startsWith(`${variable}: `)).toBe(true);
    });
  }
});

describe("BLOB_STORE", () => {
  test("defaults to the file system; s3 takes its endpoint, bucket, region and credentials", () => {
    expect(loadConfig({}).blobs.kind).toBe("fs");
    const c = loadConfig({
      BLOB_STORE: "s3",
      S3_ENDPOINT: "http://127.0.0.1:9000/",
      S3_BUCKET: "library",
      S3_REGION: "eu-west-1",
      S3_ACCESS_KEY_ID: "AK",
      S3_SECRET_ACCESS_KEY: "sekrit-value",
    });
    expect(c.blobs).toEqual({
      kind: "s3",
      s3: {
        endpoint: "http://127.0.0.1:9000",
        bucket: "library",
        region: "eu-west-1",
        accessKeyId: "AK",
        secretAccessKey: "sekrit-value",
      },
    });
  });

  test("an error about the credentials never repeats the secret", () => {
    const e = errorOf({ BLOB_STORE: "s3", S3_BUCKET: "b1b", S3_SECRET_ACCESS_KEY: "sekrit-value" });
    expect(e.variable).toBe("S3_ACCESS_KEY_ID");
    expect(e.message).not.toContain("sekrit");
  });
});

describe("the configuration object", () => {
  test("is frozen all the way down", () => {
    const c = loadConfig({});
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.rateLimit)).toBe(true);
    expect(Object.isFrozen(c.credits.plans)).toBe(true);
    expect(Object.isFrozen(c.credits.plans[0])).toBe(true);
    expect(() => {
      (c as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => {
      (c.credits.plans as unknown as unknown[]).push({});
    }).toThrow(TypeError);
    expect(c.port).toBe(3000);
  });
});

describe("the server process", () => {
  test("PORT=abc exits non-zero with one line naming PORT", async () => {
    const proc = Bun.spawn([process.execPath, "run", "src/main.ts"], {
      cwd: resolve(import.meta.dir, ".."),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: "abc" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
  }, 60_000);
});

describe("EMBEDDER", () => {
  test("defaults to the builtin neural embedder, released after two idle minutes", () => {
    const c = loadConfig({});
    expect(c.ai.embedder).toBe("builtin");
    expect(c.ai.embedderIdleMs).toBe(120_000);
    expect(loadConfig({ EMBEDDER: "hashed" }).ai.embedder).toBe("hashed");
  });

  test("anything else is a clear error", () => {
    expect(errorOf({ EMBEDDER: "neural" }).message).toContain("EMBEDDER");
    expect(errorOf({ EMBEDDER_IDLE_MS: "5" }).message).toContain("EMBEDDER_IDLE_MS");
  });
});

describe("PGVECTOR", () => {
  test("defaults to auto (use pgvector when the extension can be created); off forces the bit codes", () => {
    expect(loadConfig({}).database.pgvector).toBe("auto");
    expect(loadConfig({ PGVECTOR: "off" }).database.pgvector).toBe("off");
    expect(loadConfig({ PGVECTOR: "AUTO" }).database.pgvector).toBe("auto");
  });

  test("anything else is a clear error", () => {
    expect(errorOf({ PGVECTOR: "on" }).message).toContain("PGVECTOR");
    expect(errorOf({ PGVECTOR: "true" }).message).toContain("must be auto or off");
  });
});
