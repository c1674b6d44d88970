// Outbox adapter: with no SMTP configured, each message is written as an .eml file under DATA_DIR/outbox.
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { newId } from "../../ids.ts";
import { domainOf } from "./message.ts";
import type { Mailer, MailReceipt } from "./port.ts";

export const OUTBOX_DIR = "outbox";

export interface OutboxOptions {
  dataDir: string;
  from: string;
}

/** A file name from the Message-ID, so a retried step rewrites its file instead of adding a second. */
export function outboxFileName(messageId: string): string {
  const local = messageId.replace(/^<|>$/g, "").split("@")[0] ?? "";
  const safe = local.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `${safe || "message"}.eml`;
}

export function createOutboxMailer(opts: OutboxOptions): Mailer {
  const dir = join(opts.dataDir, OUTBOX_DIR);
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
      const name = outboxFileName(messageId);
      await mkdir(dir, { recursive: true });
      // Written aside, then renamed: a reader of the folder never sees half a message.
      const temp = join(dir, `.${name}.${process.pid}.tmp`);
      await writeFile(temp, info.message as Buffer);
      await rename(temp, join(dir, name));
      return {
        transport: "outbox",
        message_id: messageId,
        accepted: [...mail.to],
        rejected: [],
        response: null,
        file: `${OUTBOX_DIR}/${name}`,
      };
    },
    close: () => {},
  };
}
