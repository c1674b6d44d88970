// The mailer port: one message out, through SMTP or into the outbox table; failures say whether to retry.

export interface OutgoingMail {
  /** Checked addresses (see message.ts). */
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** "<id@domain>"; stable across retries of one step so receivers and the outbox can de-duplicate. */
  messageId?: string;
  /** The user whose Settings → Outbox shows the message when it is kept instead of sent (a run's owner). */
  owner?: string;
}

export interface MailReceipt {
  transport: "smtp" | "outbox";
  message_id: string;
  accepted: string[];
  rejected: string[];
  /** The SMTP server's final reply. */
  response: string | null;
  /** The message's name in the outbox (Settings → Outbox → name); null when it was sent. */
  outbox: string | null;
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
