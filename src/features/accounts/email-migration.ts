// Brings emails stored before canonical emails (NFKC, full case folding, no invisible characters) to
// their canonical form. SQL cannot NFKC, so this is code run at every start after the SQL migrations, on
// either engine; it is idempotent, and rows that would collide are reported, never merged.
import type { Logger } from "../../log.ts";
import { canonicalEmail } from "./email.ts";
import type { AccountsRepo } from "./repo.ts";

export interface EmailNormalisation {
  updated: string[];
  /** Groups of user ids whose emails have one canonical form; every row of a group is left as it was. */
  conflicts: string[][];
}

export async function normaliseStoredEmails(deps: {
  repo: Pick<AccountsRepo, "listEmails">;
  /** Writes one user's new email (and evicts caches of that user). */
  setEmail: (id: string, email: string) => Promise<void>;
  logger: Logger;
}): Promise<EmailNormalisation> {
  const rows = await deps.repo.listEmails();
  const groups = new Map<string, { id: string; email: string }[]>();
  for (const r of rows) {
    const key = canonicalEmail(r.email, "email", { stripInvisible: true });
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const result: EmailNormalisation = { updated: [], conflicts: [] };
  for (const [canonical, group] of groups) {
    if (group.length > 1) {
      // Which account the person means is a question for the administrator (ids only: no hashes, no emails).
      const ids = group.map((r) => r.id);
      result.conflicts.push(ids);
      deps.logger.warn("accounts: emails that are the same address after normalisation; left unchanged", {
        user_ids: ids,
      });
      continue;
    }
    const row = group[0]!;
    if (row.email === canonical) continue;
    try {
      await deps.setEmail(row.id, canonical);
      result.updated.push(row.id);
    } catch (e) {
      // Another process wrote a colliding row meanwhile: report like any conflict.
      result.conflicts.push([row.id]);
      deps.logger.warn("accounts: could not normalise an email; left unchanged", {
        user_ids: [row.id],
        error: String(e).slice(0, 200),
      });
    }
  }
  if (result.updated.length) deps.logger.info("accounts: emails normalised", { count: result.updated.length });
  return result;
}
