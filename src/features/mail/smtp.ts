// SMTP adapter over nodemailer: pooled connections, STARTTLS whenever the server offers it, replies classified.
import type { ConnectionOptions } from "node:tls";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { MailError, type Mailer, type MailReceipt } from "./port.ts";

export interface SmtpOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465 (TLS from the start). */
  url: string;
  from: string;
  /** Extra TLS settings (a private CA, the name to verify); tests use them, SMTP_URL cannot carry PEM. */
  tls?: ConnectionOptions;
  maxConnections?: number;
}

type SmtpFailure = Error & { code?: string; responseCode?: number; response?: string };

/** 5xx is the server's final no; 4xx and failures with no reply at all may work later. */
export function classifySmtpError(err: unknown): MailError {
  const e = err as SmtpFailure;
  if (typeof e?.responseCode === "number") {
    const reply = (e.response ?? String(e.responseCode)).trim();
    return new MailError(`the SMTP server answered: ${reply}`, e.responseCode < 500, e.responseCode, reply);
  }
  const why = e?.code ?? (err instanceof Error ? err.message : String(err));
  return new MailError(`could not talk to the SMTP server (${why})`, true);
}

export function createSmtpMailer(opts: SmtpOptions): Mailer {
  const transport = nodemailer.createTransport({
    url: opts.url,
    pool: true,
    maxConnections: opts.maxConnections ?? 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // Message content comes from templates: it must never make nodemailer read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(opts.tls ? { tls: opts.tls } : {}),
  });

  return {
    transport: "smtp",
    async send(mail): Promise<MailReceipt> {
      let info: SMTPTransport.SentMessageInfo;
      try {
        info = await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
        });
      } catch (err) {
        throw classifySmtpError(err);
      }
      return {
        transport: "smtp",
        message_id: info.messageId,
        accepted: info.accepted.map(String),
        rejected: info.rejected.map(String),
        response: info.response ?? null,
        outbox: null,
      };
    },
    close: () => transport.close(),
  };
}
