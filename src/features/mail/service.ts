// Sending one email for a caller (the send_email action): check it, give it a stable Message-ID, hand it over.
import { checkMessage, domainOf, type MailInput } from "./message.ts";
import type { Mailer, MailReceipt } from "./port.ts";

export interface SentMail extends MailReceipt {
  to: string[];
  subject: string;
  /** Present when the message went to the outbox folder because no SMTP server is configured. */
  note?: string;
}

export function createMailService(deps: { mailer: Mailer; from: string }) {
  const domain = domainOf(deps.from);
  return {
    transport: deps.mailer.transport,
    /**
     * Throws AppError 422 for a bad message and MailError when it was not sent. `idKey` (a step id)
     * fixes the Message-ID, so a retry of the same step is recognisably the same message.
     */
    async send(input: MailInput, opts: { idKey?: string } = {}): Promise<SentMail> {
      const mail = checkMessage(input);
      if (opts.idKey) mail.messageId = `<${opts.idKey.replace(/[^A-Za-z0-9_.-]/g, "_")}@${domain}>`;
      const receipt = await deps.mailer.send(mail);
      const out: SentMail = { ...receipt, to: mail.to, subject: mail.subject };
      if (receipt.transport === "outbox")
        out.note = `SMTP is not configured (SMTP_URL): the message was written to ${receipt.file} in the data directory`;
      return out;
    },
    close: () => deps.mailer.close(),
  };
}
export type MailService = ReturnType<typeof createMailService>;
