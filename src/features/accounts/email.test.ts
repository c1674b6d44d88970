// Canonical emails: each look-alike spelling of an address is the same account or is refused, at
// sign-up, sign-in and lookups; rows stored before the rule are normalised at start-up, conflicts reported.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { AppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { createWebService } from "../../web/service.ts";
import { canonicalEmail, checkEmailScripts } from "./email.ts";
import { signUp, testBrowser } from "../../../test/browser-client.ts";
import { openChildDatabase, startServer, tempDir } from "../../../test/server-process.ts";
import { createSharedState } from "../../stores.ts";

const PASSWORD = "correct horse battery";

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("canonical emails", () => {
  test("NFKC and full case folding make one form", () => {
    expect(canonicalEmail("a\u0301lice@example.com")).toBe("\u00e1lice@example.com"); // decomposed → composed
    expect(canonicalEmail("\u00c4LICE@Example.COM")).toBe("\u00e4lice@example.com");
    expect(canonicalEmail("\uff41\uff4c\uff49\uff43\uff45@example.com")).toBe("alice@example.com"); // full-width
    expect(canonicalEmail("STRA\u00dfE@example.com")).toBe("strasse@example.com"); // ß → ss
    expect(canonicalEmail("  alice@example.com ")).toBe("alice@example.com");
  });

  test.each([
    ["zero-width space", "al\u200bice@example.com"],
    ["soft hyphen", "alice\u00ad@example.com"],
    ["right-to-left override", "alice\u202e@example.com"],
    ["bidi isolate", "\u2066alice@example.com"],
    ["zero-width joiner in the domain", "alice@exa\u200dmple.com"],
    ["control character", "ali\u0007ce@example.com"],
    ["byte order mark inside", "ali\ufeffce@example.com"],
  ])("refuses a %s with an error naming the field", (_, raw) => {
    let err: unknown;
    try {
      canonicalEmail(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).extra.errors![0]!.path).toBe("email");
    expect((err as AppError).extra.errors![0]!.message).toContain("invisible");
  });

  test("stripInvisible drops what a lookup would refuse", () => {
    expect(canonicalEmail("Al\u200bice\u00ad@example.com", "email", { stripInvisible: true })).toBe(
      "alice@example.com",
    );
  });

  test("mixing scripts in a part is refused; one script per part is not", () => {
    const mixed = (e: string) => {
      try {
        checkEmailScripts(e);
        return false;
      } catch (err) {
        return (err as AppError).extra.errors![0]!.path === "email";
      }
    };
    expect(mixed("\u0430lice@example.com")).toBe(true); // Cyrillic а + Latin
    expect(mixed("alice@ex\u0430mple.com")).toBe(true);
    expect(mixed("\u03bflive@example.com")).toBe(true); // Greek ο
    expect(mixed("alice@example.com")).toBe(false);
    expect(mixed("\u0430\u043b\u0438\u0441\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.com")).toBe(false); // алиса@пример.com
    expect(mixed("\u65e5\u672c\u306e\u30e1\u30fc\u30eb@example.jp")).toBe(false); // Han + Hiragana + Katakana
    expect(mixed("al1ce.o'neil+tag@example.com")).toBe(false);
  });
});

describe("accounts use canonical emails", () => {
  test.each([
    ["composed and decomposed", "\u00e1lice@example.com", "a\u0301lice@example.com"],
    ["upper and lower case umlaut", "\u00e4lice@example.com", "\u00c4LICE@example.com"],
    ["full-width", "alice@example.com", "\uff41\uff4c\uff49\uff43\uff45@example.com"],
    ["sharp s", "strasse@example.com", "stra\u00dfe@example.com"],
  ])(
    "%s spellings are one account: sign-up conflicts, sign-in works with either",
    async (_, first, second) => {
      const ctx = createTestContext();
      const a = ctx.services.accounts;
      const u = await a.createUser({ email: first, password: PASSWORD });
      expect((await refusal(a.createUser({ email: second, password: PASSWORD }))).code).toBe("conflict");
      expect((await a.verifyPassword(second, PASSWORD)).id).toBe(u.id);
      expect((await a.userByEmail(second)).id).toBe(u.id);
      expect(await sqlRows(ctx.db, "SELECT email FROM users")).toEqual([{ email: canonicalEmail(first) }]);
    },
    30_000,
  );

  test.each([
    ["a zero-width space", "al\u200bice@example.com", "invisible"],
    ["a soft hyphen", "alice\u00ad@example.com", "invisible"],
    ["a Cyrillic look-alike", "\u0430lice@example.com", "scripts"],
    ["a Greek look-alike", "alice@ex\u03b1mple.com", "scripts"],
  ])(
    "sign-up with %s is refused on the email field",
    async (_, email, word) => {
      const ctx = createTestContext();
      await ctx.services.accounts.createUser({ email: "alice@example.com", password: PASSWORD });
      const e = await refusal(ctx.services.accounts.createUser({ email, password: PASSWORD }));
      expect(e.code).toBe("validation_failed");
      expect(e.extra.errors![0]!.path).toBe("email");
      expect(e.extra.errors![0]!.message).toContain(word);
      expect(await sqlRows(ctx.db, "SELECT email FROM users")).toEqual([{ email: "alice@example.com" }]);
    },
    30_000,
  );

  test("sign-in with an invisible character is a validation error on the email field", async () => {
    const ctx = createTestContext();
    await ctx.services.accounts.createUser({ email: "alice@example.com", password: PASSWORD });
    const { accounts, keys, oauth, clock } = ctx.services;
    const web = createWebService({
      accounts,
      keys,
      oauth,
      clock,
      config: ctx.config,
      db: ctx.db,
      ...createSharedState(ctx.db),
    });
    const e = await refusal(web.signIn({ email: "al\u200bice@example.com", password: PASSWORD }, "1.2.3.4"));
    expect(e.extra.errors![0]!.path).toBe("email");
  }, 30_000);
});

describe("the sign-up and sign-in pages", () => {
  test("a look-alike is refused beside the email field; a full-width spelling signs in", async () => {
    const ctx = createTestContext();
    expect((await signUp(testBrowser(ctx), "alice@example.com")).status).toBe(303);
    const zw = await signUp(testBrowser(ctx), "al\u200bice@example.com");
    expect(zw.status).toBe(422);
    expect(zw.text).toMatch(/id="f-email-error">Email must not contain invisible or formatting characters/);
    const cyrillic = await signUp(testBrowser(ctx), "\u0430lice@example.com");
    expect(cyrillic.status).toBe(422);
    expect(cyrillic.text).toMatch(/id="f-email-error">Email mixes letters of different scripts/);
    const wide = await testBrowser(ctx).submit("/signin", "/signin", {
      email: "\uff21\uff2c\uff29\uff23\uff25@example.com",
      password: PASSWORD,
    });
    expect(wide.status).toBe(303);
  }, 30_000);
});

function recordingLogger(): Logger & { warnings: { msg: string; fields?: Record<string, unknown> }[] } {
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const none = () => {};
  return {
    debug: none,
    info: none,
    error: none,
    flush: none,
    warn: (msg, fields) => warnings.push({ msg, fields }),
    warnings,
  };
}

describe("normalising stored emails at start-up", () => {
  test("rows are brought to canonical form; a collision is left unchanged and reported by user ids", async () => {
    const ctx = createTestContext();
    const insert = (id: string, email: string) =>
      sqlRows(
        ctx.db,
        "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'n', ?, 'free', 't', 't')",
        id,
        email,
        `secret-hash-${id}`,
      );
    await insert("usr_a", "alice@example.com");
    await insert("usr_b", "al\u200bice@example.com"); // the same address once invisibles go
    await insert("usr_c", "a\u0301da@example.com"); // decomposed, no twin
    await insert("usr_d", "\uff42ob@example.com"); // full-width, no twin
    await insert("usr_e", "carol@example.com"); // already canonical
    const logger = recordingLogger();
    const r = await ctx.services.accounts.normaliseStoredEmails(logger);
    expect(r.updated.sort()).toEqual(["usr_c", "usr_d"]);
    expect(r.conflicts).toEqual([["usr_a", "usr_b"]]);
    const rows = await sqlRows<{ id: string; email: string }>(ctx.db, "SELECT id, email FROM users ORDER BY id");
    expect(rows).toEqual([
      { id: "usr_a", email: "alice@example.com" },
      { id: "usr_b", email: "al\u200bice@example.com" },
      { id: "usr_c", email: "\u00e1da@example.com" },
      { id: "usr_d", email: "bob@example.com" },
      { id: "usr_e", email: "carol@example.com" },
    ]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]!.fields).toEqual({ user_ids: ["usr_a", "usr_b"] });
    expect(JSON.stringify(logger.warnings)).not.toContain("secret-hash");
    // The normalised account signs in by any spelling; running again changes nothing.
    expect((await ctx.services.accounts.userByEmail("A\u0301DA@example.com")).id).toBe("usr_c");
    const again = await ctx.services.accounts.normaliseStoredEmails(recordingLogger());
    expect(again.updated).toEqual([]);
    expect(again.conflicts).toEqual([["usr_a", "usr_b"]]);
  });
});

describe("the server normalises stored emails at start", () => {
  const data = tempDir("commonplace-emails-");
  afterAll(() => data.remove());

  test("before it listens: one row normalised, a colliding pair reported by id and left", async () => {
    const db = openChildDatabase(data.path);
    const insert = (id: string, email: string) =>
      sqlRows(
        db,
        "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'n', 'h', 'free', 't', 't')",
        id,
        email,
      );
    await insert("usr_a", "alice@example.com");
    await insert("usr_b", "alice\u00ad@example.com");
    await insert("usr_c", "\u00c4da@example.com");
    db.close();
    await db.end();
    const server = await startServer([process.execPath, "run", "src/main.ts"], { DATA_DIR: data.path });
    try {
      const warning = server
        .output()
        .split("\n")
        .find((l) => l.includes("same address after normalisation"));
      expect(JSON.parse(warning!)).toMatchObject({ level: "warn", user_ids: ["usr_a", "usr_b"] });
    } finally {
      await server.stop();
    }
    const after = openChildDatabase(data.path);
    try {
      expect(await sqlRows(after, "SELECT id, email FROM users ORDER BY id")).toEqual([
        { id: "usr_a", email: "alice@example.com" },
        { id: "usr_b", email: "alice\u00ad@example.com" },
        { id: "usr_c", email: "\u00e4da@example.com" },
      ]);
    } finally {
      after.close();
      await after.end();
    }
  }, 60_000);
});
