// Email end to end against a real SMTP server on 127.0.0.1, the outbox fallback, and header injection.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../errors.ts";
import { testConfig } from "../../config.ts";
import { openTestDatabase } from "../../db/client.ts";
import { sqlRows } from "../../db/inspect.ts";
import type { EngineDb } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import { createMailer, createMailFeature, createMailService, MailError, type MailService } from "./feature.ts";
import { createMailRepo } from "./repo.ts";
import { startTestSmtp } from "./smtp-test-server.ts";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function smtpSetup(opts: Parameters<typeof startTestSmtp>[0] = {}) {
  const smtp = await startTestSmtp(opts);
  cleanup.push(() => smtp.stop());
  const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: "Commonplace <bot@library.test>" });
  const mail = createMailService({ mailer: createMailer(config), from: config.mail.from });
  cleanup.push(() => mail.close());
  return { smtp, mail };
}

async function insertUser(db: EngineDb, email: string): Promise<string> {
  const id = newId("user");
  const at = new Date().toISOString();
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'u', 'x', 'free', ?, ?)",
    id,
    email,
    at,
    at,
  );
  return id;
}

function header(data: string, name: string): string | undefined {
  const head = data.split("\r\n\r\n")[0]!.replace(/\r\n[ \t]+/g, " ");
  return head
    .split("\r\n")
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    ?.slice(name.length + 1)
    .trim();
}

describe("SMTP", () => {
  test("delivers with the right subject, body, sender and recipients", async () => {
    const { smtp, mail } = await smtpSetup();
    const sent = await mail.send(
      {
        to: ["ada@example.test", "Grace Hopper <grace@example.test>"],
        subject: "New sources today",
        text: "Three new articles.\nRead them soon.",
      },
      { idKey: "step_01ABC" },
    );
    expect(sent).toMatchObject({
      transport: "smtp",
      accepted: ["ada@example.test", "grace@example.test"],
      rejected: [],
      message_id: "<step_01ABC@library.test>",
    });
    expect(sent.response).toStartWith("250");
    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0]!;
    expect(got.from).toBe("bot@library.test");
    expect(got.to).toEqual(["ada@example.test", "grace@example.test"]);
    expect(header(got.data, "Subject")).toBe("New sources today");
    expect(header(got.data, "From")).toBe("Commonplace <bot@library.test>");
    expect(header(got.data, "To")).toBe("ada@example.test, Grace Hopper <grace@example.test>");
    expect(header(got.data, "Message-ID")).toBe("<step_01ABC@library.test>");
    expect(got.data).toContain("Three new articles.\r\nRead them soon.");
  });

  test("sends text and HTML as alternatives", async () => {
    const { smtp, mail } = await smtpSetup();
    await mail.send({
      to: "ada@example.test",
      subject: "Digest",
      text: "plain words",
      html: "<p>rich <b>words</b></p>",
    });
    const data = smtp.received[0]!.data;
    expect(header(data, "Content-Type")).toStartWith("multipart/alternative");
    expect(data).toContain("plain words");
    expect(data).toContain("<p>rich <b>words</b></p>");
  });

  test("a 4xx reply is transient: the message is not lost, the next try succeeds", async () => {
    const { smtp, mail } = await smtpSetup();
    smtp.replies.push({ code: 451, message: "Greylisted, try again later" });
    const first = await mail.send({ to: "ada@example.test", subject: "Hi", text: "x" }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MailError);
    expect(first).toMatchObject({ transient: true, responseCode: 451 });
    expect((first as MailError).message).toContain("451 Greylisted, try again later");
    expect(smtp.received).toHaveLength(0);
    const second = await mail.send({ to: "ada@example.test", subject: "Hi", text: "x" });
    expect(second.accepted).toEqual(["ada@example.test"]);
    expect(smtp.received).toHaveLength(1);
  });

  test("a 5xx reply is permanent and carries the server's words", async () => {
    const { smtp, mail } = await smtpSetup();
    smtp.replies.push({ code: 554, message: "Message rejected as spam" });
    const err = await mail.send({ to: "ada@example.test", subject: "Hi", text: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ transient: false, responseCode: 554, response: "554 Message rejected as spam" });
    expect(smtp.received).toHaveLength(0);
  });

  test("a refused recipient (550) is permanent", async () => {
    const { mail } = await smtpSetup({
      onRcptTo(addr, _s, cb) {
        cb(
          addr.address.startsWith("nobody")
            ? Object.assign(new Error("No such user here"), { responseCode: 550 })
            : undefined,
        );
      },
    });
    const err = await mail.send({ to: "nobody@example.test", subject: "Hi", text: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ transient: false, responseCode: 550 });
    expect((err as MailError).response).toContain("No such user here");
  });

  test("no server listening is transient", async () => {
    const smtp = await startTestSmtp();
    await smtp.stop();
    const config = testConfig({ SMTP_URL: smtp.url });
    const mail = createMailService({ mailer: createMailer(config), from: config.mail.from });
    cleanup.push(() => mail.close());
    const err = await mail.send({ to: "ada@example.test", subject: "Hi", text: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect(err).toMatchObject({ transient: true, responseCode: null });
  });
});

describe("outbox (no SMTP configured)", () => {
  async function outboxSetup() {
    const db = openTestDatabase();
    cleanup.push(() => db.close());
    const config = testConfig({ MAIL_FROM: "bot@library.test" });
    expect(config.mail.smtpUrl).toBeUndefined();
    const userId = await insertUser(db, "owner@example.test");
    const mail = createMailFeature({ config, repo: createMailRepo(db) }).service;
    return { db, config, mail, userId };
  }

  test("keeps the message in the outbox table, shows it to its owner only, and says so", async () => {
    const { db, config, mail, userId } = await outboxSetup();
    const sent = await mail.send(
      { to: ["ada@example.test"], subject: "Weekly digest", text: "Hello from the outbox" },
      { idKey: "step_01XYZ", owner: userId },
    );
    expect(sent).toMatchObject({
      transport: "outbox",
      outbox: "step_01XYZ.eml",
      accepted: ["ada@example.test"],
      message_id: "<step_01XYZ@library.test>",
    });
    expect(sent.note).toContain("SMTP is not configured");
    const eml = (await mail.outbox.read(userId, "step_01XYZ.eml"))!;
    expect(header(eml, "Subject")).toBe("Weekly digest");
    expect(header(eml, "To")).toBe("ada@example.test");
    expect(header(eml, "From")).toBe("bot@library.test");
    expect(eml).toContain("Hello from the outbox");
    expect(await mail.outbox.list(userId)).toEqual([
      {
        name: "step_01XYZ.eml",
        subject: "Weekly digest",
        to: "ada@example.test",
        date: expect.any(String),
        size: Buffer.byteLength(eml),
      },
    ]);
    // Nothing is written to the data directory: every process of a deployment reads the same table.
    expect(existsSync(join(config.dataDir, "outbox"))).toBe(false);
    const stranger = await insertUser(db, "stranger@example.test");
    expect(await mail.outbox.list(stranger)).toEqual([]);
    expect(await mail.outbox.read(stranger, "step_01XYZ.eml")).toBeUndefined();
  });

  test("the same step sent twice leaves one message; different messages leave one each", async () => {
    const { db, mail, userId } = await outboxSetup();
    await mail.send({ to: "ada@example.test", subject: "A", text: "1" }, { idKey: "step_1", owner: userId });
    await mail.send({ to: "ada@example.test", subject: "A again", text: "1" }, { idKey: "step_1", owner: userId });
    await mail.send({ to: "ada@example.test", subject: "B", text: "2" }, { owner: userId });
    const rows = await sqlRows<{ name: string; subject: string }>(
      db,
      "SELECT name, subject FROM mail_outbox ORDER BY subject",
    );
    expect(rows.map((r) => r.subject)).toEqual(["A again", "B"]);
    expect((await mail.outbox.list(userId)).map((m) => m.subject).sort()).toEqual(["A again", "B"]);
  });

  test("deleting the owner deletes their outbox", async () => {
    const { db, mail, userId } = await outboxSetup();
    await mail.send({ to: "ada@example.test", subject: "A", text: "1" }, { owner: userId });
    await sqlRows(db, "DELETE FROM users WHERE id = ?", userId);
    expect(await sqlRows(db, "SELECT name FROM mail_outbox")).toEqual([]);
  });
});

describe("header injection", () => {
  async function refused(mail: MailService, input: Parameters<MailService["send"]>[0]): Promise<AppError> {
    const err = await mail.send(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }

  test("line breaks in the subject or an address are refused before anything is sent", async () => {
    const { smtp, mail } = await smtpSetup();
    const cases: [Parameters<MailService["send"]>[0], string][] = [
      [{ to: "ada@example.test", subject: "Hi\r\nBcc: everyone@example.test", text: "x" }, "subject"],
      [{ to: "ada@example.test", subject: "Hi\nX-Evil: 1", text: "x" }, "subject"],
      [{ to: "ada@example.test\r\nBcc: everyone@example.test", subject: "Hi", text: "x" }, "to"],
      [{ to: ["ada@example.test", "Eve\n <eve@example.test>"], subject: "Hi", text: "x" }, "to[1]"],
      [{ to: "ada@example.test, eve@example.test", subject: "Hi", text: "x" }, "to"],
      [{ to: '"Ada" <ada@example.test>', subject: "Hi", text: "x" }, "to"],
      [{ to: "not an address", subject: "Hi", text: "x" }, "to"],
      [{ to: [], subject: "Hi", text: "x" }, "to"],
    ];
    for (const [input, path] of cases) {
      const err = await refused(mail, input);
      expect(err.status).toBe(422);
      expect(err.extra.errors?.[0]?.path).toBe(path);
    }
    expect(smtp.received).toHaveLength(0);
  });

  test("line breaks in the body are fine", async () => {
    const { smtp, mail } = await smtpSetup();
    await mail.send({ to: "ada@example.test", subject: "Hi", text: "Bcc: not-a-header@example.test\r\n\r\nreally" });
    expect(header(smtp.received[0]!.data, "Bcc")).toBeUndefined();
    expect(smtp.received[0]!.to).toEqual(["ada@example.test"]);
  });
});

test("without SMTP_URL the mailer needs the database for its outbox", () => {
  expect(() => createMailer(testConfig())).toThrow("the outbox needs the database");
});

test("STARTTLS is used when the server offers it, and the certificate is verified", async () => {
  const { TEST_CA, SECURE_TEST_CERT, SECURE_TEST_KEY } = await import("../../../test/fixtures/test-pki.ts");
  const smtp = await startTestSmtp({ key: SECURE_TEST_KEY, cert: SECURE_TEST_CERT });
  cleanup.push(() => smtp.stop());
  const config = testConfig({ SMTP_URL: smtp.url });
  const trusted = createMailService({
    mailer: createMailer(config, { tls: { ca: TEST_CA, servername: "secure.test" } }),
    from: config.mail.from,
  });
  cleanup.push(() => trusted.close());
  await trusted.send({ to: "ada@example.test", subject: "Over TLS", text: "x" });
  expect(smtp.received[0]?.secure).toBe(true);

  const untrusting = createMailService({
    mailer: createMailer(config, { tls: { servername: "secure.test" } }),
    from: config.mail.from,
  });
  cleanup.push(() => untrusting.close());
  const err = await untrusting
    .send({ to: "ada@example.test", subject: "Over TLS", text: "x" })
    .catch((e: unknown) => e);
  expect(err).toMatchObject({ transient: true, responseCode: null });
  expect(smtp.received).toHaveLength(1);
});
