// The reader's page with what it shows around the article, for the reader's GET and for the forms
// (rename, ask, settings) that answer with the page itself.
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { PICKER_LIMIT, TAG_SUGGESTIONS } from "./common.ts";
import { readerPage, type ReaderPageInput } from "./reader-pages.ts";

export type ReaderDeps = Pick<WebDeps, "accounts" | "highlights" | "live" | "notebooks" | "notes" | "sources">;

/** The reader lists this many of the notes about the source. */
const LINKED_NOTES = 20;

/** The reader with its notebooks and the notes about it, plus whatever a form left to show. */
export function readerResponder(s: ReaderDeps, h: WebHelpers) {
  return async function readerResponse(
    me: SignedIn,
    id: string,
    extra: Pick<ReaderPageInput, "rename" | "ask" | "settings" | "flash" | "status"> = {},
  ): Promise<Response> {
    const liveSince = await s.live.events.latestSeq();
    const source = await s.sources.publicOf(await s.sources.get(me.actor, id), true);
    const notes = await s.notes.list(me.actor, { limit: LINKED_NOTES, sourceId: source.id });
    return readerPage({
      user: h.layoutUser(me),
      source,
      preferences: await s.accounts.preferences(me.user.id),
      highlights: source.status === "ready" ? await s.highlights.forSource(me.actor, source.id) : [],
      notebooks: (await s.notebooks.list(me.actor, { limit: PICKER_LIMIT })).data,
      tagNames: (await s.sources.tagCounts(me.actor)).slice(0, TAG_SUGGESTIONS).map((t) => t.name),
      notes: notes.data,
      moreNotes: notes.next_cursor !== null,
      liveSince,
      ...extra,
    });
  };
}
