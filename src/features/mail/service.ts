// Sending one email for a caller (the send_email action): check it, give it a stable Message-ID, hand it over;
// and reading back the outbox of messages kept while no SMTP server was configured.
import { checkMessage, domainOf, type MailInput } from "./message.ts";
import type { OutboxReader } from "./outbox-reader.ts";
import type { Mailer, MailReceipt } from "./port.ts";

export interface SentMail extends MailReceipt {
  to: string[];
  subject: string;
  /** Present when the message was kept in the outbox because no SMTP server is configured. */
  note?: string;
}

export function createMailService(deps: { mailer: Mailer; from: string; outbox?: OutboxReader }) {
  const domain = domainOf(deps.from);
  return {
    transport: deps.mailer.transport,
    /**
     * Throws AppError 422 for a bad message and MailError when it was not sent. `idKey` (a step id)
     * fixes the Message-ID, so a retry of the same step is recognisably the same message. `owner` is
     * the user whose outbox shows the message if it is kept instead of sent.
     */
    async send(input: MailInput, opts: { idKey?: string; owner?: string } = {}): Promise<SentMail> {
      const mail = checkMessage(input);
      if (opts.idKey) mail.messageId = `<${opts.idKey.replace(/[^A-Za-z0-9_.-]/g, "_")}@${domain}>`;
      if (opts.owner) mail.owner = opts.owner;
      const receipt = await deps.mailer.send(mail);
      const out: SentMail = { ...receipt, to: mail.to, subject: mail.subject };
      if (receipt.transport === "outbox")
        out.note = `SMTP is not configured (SMTP_URL): the message was kept in the outbox as ${receipt.outbox} (Settings → Outbox)`;
      return out;
    },
    /** The messages a user's workflows kept while no SMTP server was configured. */
    outbox: deps.outbox ?? { list: async () => [], read: async () => undefined },
    close: () => deps.mailer.close(),
  };
}
export type MailService = ReturnType<typeof createMailService>;
