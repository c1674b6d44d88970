// Outbox adapter: with no SMTP configured, each message is kept in the mail_outbox table (Settings → Outbox).
import nodemailer from "nodemailer";
import { newId } from "../../ids.ts";
import { domainOf } from "./message.ts";
import type { Mailer, MailReceipt } from "./port.ts";
import type { MailRepo } from "./repo.ts";

export interface OutboxOptions {
  repo: MailRepo;
  from: string;
  now(): number;
}

/** A file-like name from the Message-ID, so a retried step rewrites its message instead of adding a second. */
export function outboxName(messageId: string): string {
  const local = messageId.replace(/^<|>$/g, "").split("@")[0] ?? "";
  const safe = local.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `${safe || "message"}.eml`;
}

export function createOutboxMailer(opts: OutboxOptions): Mailer {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    transport: "outbox",
    async send(mail): Promise<MailReceipt> {
      const messageId = mail.messageId ?? `<${newId("email")}@${domainOf(opts.from)}>`;
      const info = await composer.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        messageId,
      });
      const message = (info.message as Buffer).toString("utf8");
      const name = outboxName(messageId);
      await opts.repo.put({
        name,
        userId: mail.owner ?? null,
        messageId,
        recipients: mail.to.join(", "),
        subject: mail.subject,
        message,
        size: Buffer.byteLength(message),
        createdAt: new Date(opts.now()).toISOString(),
      });
      return {
        transport: "outbox",
        message_id: messageId,
        accepted: [...mail.to],
        rejected: [],
        response: null,
        outbox: name,
      };
    },
    close: () => {},
  };
}
