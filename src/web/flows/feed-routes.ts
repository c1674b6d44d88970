// Web routes for Settings → Feeds: the list of watches, "Poll now" and delete (asks first).
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import type { Flash } from "../../http/html/html.ts";
import { redirect } from "../http.ts";
import { cursorOf, flashOf, here, signInFirst } from "../library/common.ts";
import { nextKey } from "../../paging.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { feedsPage } from "./feed-pages.ts";
import { confirmPage } from "./workflow-pages.ts";

const PATH = "/settings/feeds";
const LIST_SIZE = 50;
const FEED_ID = /^feed_[0-9A-Z]{26}$/;

function notice(query: Record<string, string | undefined>): Flash | undefined {
  if (query.notice === "polled") {
    const n = Number.parseInt(query.new ?? "0", 10) || 0;
    return { kind: "ok", text: `Polled: ${n} new ${n === 1 ? "entry" : "entries"} saved as sources.` };
  }
  return flashOf(
    {
      not_modified: { kind: "ok", text: "Polled: the feed has not changed since the last poll." },
      poll_failed: { kind: "error", text: "The poll failed; the feed's last error says why." },
      deleted: { kind: "ok", text: "The watch was deleted. Running its workflow's watch_feed again makes a new one." },
    },
    query.notice,
  );
}

export function feedWebRoutes(s: Pick<WebDeps, "feeds" | "workflows">, h: WebHelpers) {
  const feeds = s.feeds;

  return (
    new Elysia()
      // GET /settings/feeds
      .get(
        PATH,
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const page = await feeds.list(me.actor, { limit: LIST_SIZE, cursor: cursorOf(query.before, FEED_ID) });
          const rows = page.data;
          const next = nextKey(page);
          const workflows = new Map(
            (await s.workflows.service.list(me.actor, { limit: 500 })).data.map((w) => [w.id, w.name]),
          );
          const lastNew = await feeds.lastPollSources(
            me.actor,
            rows.map((f) => f.id),
          );
          return feedsPage({ user: h.layoutUser(me), feeds: rows, lastNew, workflows, next, flash: notice(query) });
        }),
      )
      // POST /settings/feeds/:id/poll
      .post(
        `${PATH}/:id/poll`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          const { poll } = await feeds.pollNow(me.actor, params.id ?? "");
          if (poll.status === "failed") return redirect(`${PATH}?notice=poll_failed`);
          if (poll.status === "not_modified") return redirect(`${PATH}?notice=not_modified`);
          return redirect(`${PATH}?notice=polled&new=${poll.sources.length}`);
        }),
      )
      // GET /settings/feeds/:id/delete — asks first
      .get(
        `${PATH}/:id/delete`,
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const f = await feeds.get(me.actor, params.id ?? "");
          return confirmPage({
            user: h.layoutUser(me),
            title: "Stop watching this feed?",
            name: f.title ?? f.feed_url,
            button: "Delete",
            note: "Sources it already saved stay in your library. While the workflow keeps its watch_feed action, its next run watches the feed again.",
            action: `${PATH}/${f.id}/delete`,
            cancel: PATH,
          });
        }),
      )
      // POST /settings/feeds/:id/delete
      .post(
        `${PATH}/:id/delete`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          await feeds.remove(me.actor, params.id ?? "");
          return redirect(`${PATH}?notice=deleted`);
        }),
      )
  );
}
