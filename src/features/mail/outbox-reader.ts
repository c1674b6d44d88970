// Reads the mail outbox for the web app: the messages a user's workflows kept while no SMTP server
// was configured, each stored with the user that owns the run that sent it.
import type { MailRepo } from "./repo.ts";

export interface OutboxMessage {
  name: string;
  subject: string;
  to: string;
  date: string;
  size: number;
}

/** The newest messages a list shows; older ones stay readable by name. */
export const OUTBOX_LIST_LIMIT = 200;

export function createOutboxReader(deps: { repo: MailRepo }) {
  return {
    async list(userId: string): Promise<OutboxMessage[]> {
      return (await deps.repo.list(userId, OUTBOX_LIST_LIMIT)).map((e) => ({
        name: e.name,
        subject: e.subject,
        to: e.recipients,
        date: e.createdAt,
        size: e.size,
      }));
    },
    /** The raw message, or undefined when it is not this user's (or does not exist). */
    async read(userId: string, name: string): Promise<string | undefined> {
      return (await deps.repo.get(userId, name))?.message;
    },
  };
}
export type OutboxReader = ReturnType<typeof createOutboxReader>;
