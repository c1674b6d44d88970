// The mailer port: one message out, through SMTP or into the outbox folder; failures say whether to retry.

export interface OutgoingMail {
  /** Checked addresses (see message.ts). */
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** "<id@domain>"; stable across retries of one step so receivers and the outbox can de-duplicate. */
  messageId?: string;
}

export interface MailReceipt {
  transport: "smtp" | "outbox";
  message_id: string;
  accepted: string[];
  rejected: string[];
  /** The SMTP server's final reply. */
  response: string | null;
  /** The .eml file written, relative to the data directory (outbox only). */
  file: string | null;
}

export interface Mailer {
  readonly transport: "smtp" | "outbox";
  send(mail: OutgoingMail): Promise<MailReceipt>;
  /** Closes pooled connections. */
  close(): void;
}

/** A message that was not sent. Transient (4xx, no connection): try again later. Permanent (5xx): do not. */
export class MailError extends Error {
  override name = "MailError";
  constructor(
    message: string,
    readonly transient: boolean,
    readonly responseCode: number | null = null,
    readonly response: string | null = null,
  ) {
    super(message);
  }
}
