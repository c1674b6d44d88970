// The mail feature: picks the mailer from config in one place (SMTP when SMTP_URL is set, the outbox table otherwise).
import type { ConnectionOptions } from "node:tls";
import type { Config } from "../../config.ts";
import { systemClock, type Clock } from "../../time.ts";
import { createOutboxMailer } from "./outbox.ts";
import { createOutboxReader } from "./outbox-reader.ts";
import type { Mailer } from "./port.ts";
import type { MailRepo } from "./repo.ts";
import { createSmtpMailer } from "./smtp.ts";
import type { Feature } from "../feature.ts";
import { createMailService, type MailService } from "./service.ts";

export { checkAddress, checkMessage, domainOf, type MailInput } from "./message.ts";
export { MailError, type Mailer, type MailReceipt, type OutgoingMail } from "./port.ts";

export interface MailerOptions {
  /** Where the outbox is kept when no SMTP server is configured. */
  repo?: MailRepo;
  clock?: Clock;
  tls?: ConnectionOptions;
}

export function createMailer(config: Pick<Config, "mail">, opts: MailerOptions = {}): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from, tls: opts.tls });
  if (!opts.repo) throw new Error("createMailer: without SMTP_URL the outbox needs the database (its repository)");
  const clock = opts.clock ?? systemClock;
  return createOutboxMailer({ repo: opts.repo, from: config.mail.from, now: () => clock.now() });
}
export { createMailService, type MailService, type SentMail } from "./service.ts";

export interface MailFeatureDeps {
  config: Pick<Config, "mail">;
  /** The outbox table: where mail is kept without SMTP, and what the web app reads either way. */
  repo: MailRepo;
  clock?: Clock;
}

/** Mail has no routes or jobs of its own: workflows send through its service (send_email), the web app reads the outbox. */
export function createMailFeature(d: MailFeatureDeps): Feature<MailService> {
  const service = createMailService({
    mailer: createMailer(d.config, { repo: d.repo, clock: d.clock }),
    from: d.config.mail.from,
    outbox: createOutboxReader({ repo: d.repo }),
  });
  return { name: "mail", service };
}
