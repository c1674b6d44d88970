// The mail feature: picks the mailer from config in one place (SMTP when SMTP_URL is set, the outbox table otherwise).
import type { ConnectionOptions } from "node:tls";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import { systemClock, type Clock } from "../../time.ts";
import { createOutboxMailer } from "./outbox.ts";
import { createOutboxReader } from "./outbox-reader.ts";
import type { Mailer } from "./port.ts";
import { createMailRepo } from "./repo.ts";
import { createSmtpMailer } from "./smtp.ts";
import type { Feature } from "../feature.ts";
import { createMailService, type MailService } from "./service.ts";

export { checkAddress, checkMessage, domainOf, type MailInput } from "./message.ts";
export { MailError, type Mailer, type MailReceipt, type OutgoingMail } from "./port.ts";

export interface MailerOptions {
  /** Where the outbox is kept when no SMTP server is configured. */
  db?: Db;
  clock?: Clock;
  tls?: ConnectionOptions;
}

export function createMailer(config: Pick<Config, "mail">, opts: MailerOptions = {}): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from, tls: opts.tls });
  if (!opts.db) throw new Error("createMailer: without SMTP_URL the outbox needs the database");
  const clock = opts.clock ?? systemClock;
  return createOutboxMailer({ repo: createMailRepo(opts.db), from: config.mail.from, now: () => clock.now() });
}
export { createMailService, type MailService, type SentMail } from "./service.ts";

/** Mail has no routes or jobs of its own: workflows send through its service (send_email), the web app reads the outbox. */
export function createMailFeature(config: Pick<Config, "mail">, db: Db, clock?: Clock): Feature<MailService> {
  const service = createMailService({
    mailer: createMailer(config, { db, clock }),
    from: config.mail.from,
    outbox: createOutboxReader({ repo: createMailRepo(db) }),
  });
  return { name: "mail", service };
}
