// Web routes for Feeds: subscribe (choosing among a page's feeds), the list, one feed with its entries and
// settings, pause/resume, poll now and unsubscribe (asks first). Plain forms; no script needed.
import { Elysia } from "elysia";
import type { Actor } from "../../actor.ts";
import { AppError } from "../../errors.ts";
import type { FeedSubscribeInput } from "../../features/feeds/schema.ts";
import type { Flash } from "../../http/html/html.ts";
import { nextKey } from "../../paging.ts";
import type { WebDeps } from "../deps.ts";
import { redirect } from "../http.ts";
import { cursorOf, flashOf, formFields, here, PICKER_LIMIT, signInFirst } from "../library/common.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { feedDetailPage } from "./feed-detail-page.ts";
import { chooseFeedPage, EMPTY_FORM, FEEDS_PATH, feedsPage, type SubscribeForm } from "./feed-pages.ts";
import { confirmPage } from "./workflow-pages.ts";

const LIST_SIZE = 50;
const ENTRIES_SIZE = 50;
const FEED_ID = /^feed_[0-9A-Z]{26}$/;
const SOURCE_ID = /^src_[0-9A-Z]{26}$/;

function notice(query: Record<string, string | undefined>): Flash | undefined {
  if (query.notice === "polled") {
    const n = Number.parseInt(query.new ?? "0", 10) || 0;
    return { kind: "ok", text: `Polled: ${n} new ${n === 1 ? "entry" : "entries"} saved as sources.` };
  }
  return flashOf(
    {
      subscribed: { kind: "ok", text: "Subscribed. The first poll runs now; new entries will appear as sources." },
      already: { kind: "ok", text: "You already follow this feed: it is listed here with your settings applied." },
      paused: { kind: "ok", text: "Paused: the feed is not checked until you resume it." },
      resumed: { kind: "ok", text: "Resumed: the feed is checked on its schedule again." },
      saved: { kind: "ok", text: "Saved." },
      not_modified: { kind: "ok", text: "Polled: the feed has not changed since the last poll." },
      poll_failed: { kind: "error", text: "The poll failed; the feed's last error says why." },
      unsubscribed: { kind: "ok", text: "Unsubscribed. The sources it saved stay in your library." },
    },
    query.notice,
  );
}

const str = (body: unknown, name: string): string => {
  const v = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === "string" ? v : "";
};

function readForm(body: unknown): SubscribeForm {
  return {
    url: str(body, "url").trim(),
    schedule: str(body, "schedule") || EMPTY_FORM.schedule,
    backfill: /^\d{1,4}$/.test(str(body, "backfill")) ? str(body, "backfill") : "0",
    notebookIds: formFields(body, "notebook_ids"),
  };
}

/** Where a button's form asks to come back to: this feed's page or the list, nothing else. */
const backTo = (body: unknown, id: string) =>
  str(body, "back") === `${FEEDS_PATH}/${id}` ? `${FEEDS_PATH}/${id}` : FEEDS_PATH;

function fieldErrors(err: AppError): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of err.extra.errors ?? [{ path: "url", message: err.detail ?? err.message }]) {
    const key = e.path.replace(/\[\d+\]$/, "");
    out.set(key, [...(out.get(key) ?? []), e.message]);
  }
  return out;
}

export function feedWebRoutes(s: Pick<WebDeps, "clock" | "feeds" | "notebooks" | "workflows">, h: WebHelpers) {
  const feeds = s.feeds;
  const notebooksOf = async (actor: Actor) =>
    (await s.notebooks.list(actor, { limit: PICKER_LIMIT })).data.map((n) => ({ id: n.id, name: n.name }));

  async function listPage(
    me: NonNullable<Awaited<ReturnType<WebHelpers["signedIn"]>>>,
    query: Record<string, string | undefined>,
    extra: { form?: SubscribeForm; errors?: Map<string, string[]>; status?: number } = {},
  ): Promise<Response> {
    const page = await feeds.list(me.actor, { limit: LIST_SIZE, cursor: cursorOf(query.before, FEED_ID) });
    const rows = page.data;
    const workflows = rows.some((f) => f.workflow_id)
      ? new Map((await s.workflows.service.list(me.actor, { limit: 500 })).data.map((w) => [w.id, w.name]))
      : new Map<string, string>();
    const lastNew = await feeds.lastPollSources(
      me.actor,
      rows.map((f) => f.id),
    );
    return feedsPage({
      user: h.layoutUser(me),
      now: s.clock.now(),
      feeds: rows,
      lastNew,
      workflows,
      notebooks: await notebooksOf(me.actor),
      next: nextKey(page),
      flash: extra.errors ? undefined : notice(query),
      ...extra,
    });
  }

  return (
    new Elysia()
      // GET /feeds
      .get(
        FEEDS_PATH,
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return listPage(me, query);
        }),
      )
      // GET /settings/feeds — where feeds used to be listed
      .get("/settings/feeds", () => new Response(null, { status: 301, headers: { location: FEEDS_PATH } }))
      // POST /feeds — subscribe, or choose among the feeds a page offers
      .post(
        FEEDS_PATH,
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(FEEDS_PATH);
          const form = readForm(body);
          const input: FeedSubscribeInput = {
            url: form.url,
            schedule: form.schedule,
            backfill: Number(form.backfill),
            notebook_ids: form.notebookIds,
          };
          try {
            if (!form.url)
              throw new AppError("validation_failed", "url", {
                errors: [{ path: "url", message: "Paste the address of a site or a feed." }],
              });
            const r = await feeds.subscribeOrChoose(me.actor, input, request.signal);
            if (r.kind === "choose") return chooseFeedPage({ user: h.layoutUser(me), discovery: r.discovery, form });
            return redirect(`${FEEDS_PATH}/${r.feed.id}?notice=${r.created ? "subscribed" : "already"}`);
          } catch (err) {
            if (!(err instanceof AppError) || err.code !== "validation_failed") throw err;
            return listPage(me, {}, { form, errors: fieldErrors(err), status: 422 });
          }
        }),
      )
      // GET /feeds/:id — the feed, its settings and its entries
      .get(
        `${FEEDS_PATH}/:id`,
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const feed = await feeds.get(me.actor, params.id ?? "");
          const entries = await feeds.entries(me.actor, feed.id, {
            limit: ENTRIES_SIZE,
            cursor: cursorOf(query.before, SOURCE_ID),
          });
          const workflowName = feed.workflow_id
            ? (await s.workflows.service.get(me.actor, feed.workflow_id).catch(() => undefined))?.name
            : undefined;
          return feedDetailPage({
            user: h.layoutUser(me),
            now: s.clock.now(),
            feed,
            lastNew: (await feeds.lastPollSources(me.actor, [feed.id])).get(feed.id) ?? 0,
            workflowName,
            notebooks: await notebooksOf(me.actor),
            entries: entries.data,
            next: nextKey(entries),
            flash: notice(query),
          });
        }),
      )
      // POST /feeds/:id/settings
      .post(
        `${FEEDS_PATH}/:id/settings`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(FEEDS_PATH);
          const id = params.id ?? "";
          await feeds.update(me.actor, id, {
            schedule: str(body, "schedule") || undefined,
            notebook_ids: formFields(body, "notebook_ids"),
          });
          return redirect(`${FEEDS_PATH}/${id}?notice=saved`);
        }),
      )
      // POST /feeds/:id/pause and /feeds/:id/resume
      .post(
        `${FEEDS_PATH}/:id/:verb`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(FEEDS_PATH);
          const id = params.id ?? "";
          const back = backTo(body, id);
          switch (params.verb) {
            case "pause":
            case "resume":
              await feeds.update(me.actor, id, { active: params.verb === "resume" });
              return redirect(`${back}?notice=${params.verb}d`);
            case "poll": {
              const { poll } = await feeds.pollNow(me.actor, id);
              if (poll.status === "failed") return redirect(`${back}?notice=poll_failed`);
              if (poll.status === "not_modified") return redirect(`${back}?notice=not_modified`);
              return redirect(`${back}?notice=polled&new=${poll.sources.length}`);
            }
            case "unsubscribe":
              await feeds.remove(me.actor, id);
              return redirect(`${FEEDS_PATH}?notice=unsubscribed`);
            default:
              throw new AppError("not_found", "Page not found");
          }
        }),
      )
      // GET /feeds/:id/unsubscribe — asks first
      .get(
        `${FEEDS_PATH}/:id/unsubscribe`,
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const f = await feeds.get(me.actor, params.id ?? "");
          return confirmPage({
            user: h.layoutUser(me),
            title: "Unsubscribe from this feed?",
            name: f.title ?? f.feed_url,
            button: "Unsubscribe",
            note: f.workflow_id
              ? "Sources it already saved stay in your library. Its workflow still has a watch_feed step for it: the next run of that step follows the feed again."
              : "Sources it already saved stay in your library.",
            action: `${FEEDS_PATH}/${f.id}/unsubscribe`,
            cancel: `${FEEDS_PATH}/${f.id}`,
          });
        }),
      )
  );
}
