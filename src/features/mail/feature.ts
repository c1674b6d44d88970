// The mail feature: picks the mailer from config in one place (SMTP when SMTP_URL is set, the outbox folder otherwise).
import type { ConnectionOptions } from "node:tls";
import type { Config } from "../../config.ts";
import { createOutboxMailer } from "./outbox.ts";
import type { Mailer } from "./port.ts";
import { createSmtpMailer } from "./smtp.ts";
import type { Feature } from "../feature.ts";
import { createMailService, type MailService } from "./service.ts";

export { checkAddress, checkMessage, domainOf, type MailInput } from "./message.ts";
export { MailError, type Mailer, type MailReceipt, type OutgoingMail } from "./port.ts";

export function createMailer(config: Pick<Config, "dataDir" | "mail">, opts: { tls?: ConnectionOptions } = {}): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from, tls: opts.tls });
  return createOutboxMailer({ dataDir: config.dataDir, from: config.mail.from });
}
export { createMailService, type MailService, type SentMail } from "./service.ts";

/** Mail has no routes or jobs of its own: workflows send through its service (send_email). */
export function createMailFeature(config: Pick<Config, "dataDir" | "mail">): Feature<MailService> {
  return { name: "mail", service: createMailService({ mailer: createMailer(config), from: config.mail.from }) };
}
