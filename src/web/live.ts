// Live updates on the web app's side: the attributes pages put on live elements (see the convention
// in live-script.ts), the script as an asset, and the event stream opened with the session cookie.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { setIdleTimeout } from "../http/context.ts";
import type { WebDeps } from "./deps.ts";
import { openEventStream } from "../features/events/stream.ts";
import { html, pageHeaders, type SafeHtml } from "../http/html/html.ts";
import { LIVE_SCRIPT } from "../http/html/live-script.ts";
import type { WebHelpers } from "./oauth-routes.ts";

export interface LiveMark {
  kind: "source" | "notebook" | "note" | "podcast" | "run" | "import" | "search_quality";
  id: string;
  /** Same-origin path of an HTML fragment that re-renders this element. */
  fragment?: string;
  /** Reload the page when the object changes. */
  reload?: boolean;
  /** The event cursor the page was rendered at (Services.live.events.latestSeq() before reading). */
  since?: number;
  /** Said by the page's live region when a refreshed fragment brings a different text. */
  announce?: string;
  /** Other kinds whose events refresh this fragment too (at most once a second). */
  also?: string;
}

/** The data-live attributes for an element, to put inside its start tag. */
export function liveAttrs(m: LiveMark): SafeHtml {
  return html` data-live="${m.kind}" data-live-id="${m.id}"${m.fragment ? html` data-live-fragment="${m.fragment}"` : ""}${m.reload ? html` data-live-reload` : ""}${m.since !== undefined ? html` data-live-since="${m.since}"` : ""}${m.announce ? html` data-live-announce="${m.announce}"` : ""}${m.also ? html` data-live-also="${m.also}"` : ""}`;
}

/** A fragment for the live script: only the markup, never cached. */
export function fragmentResponse(markup: SafeHtml): Response {
  return new Response(markup.value, { headers: pageHeaders() });
}

/** Signed out (the session ended while the page was open): the script leaves the region as it is. */
export const fragmentSignedOut = (): Response =>
  new Response("", { status: 401, headers: { "cache-control": "no-store" } });

export function liveWebRoutes(s: Pick<WebDeps, "live">, h: WebHelpers) {
  return (
    new Elysia()
      // GET /assets/live.js — versioned by its path's ?v=, so it may be cached for good.
      .get(
        "/assets/live.js",
        () =>
          new Response(LIVE_SCRIPT, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
            },
          }),
      )
      // GET /events/stream — the same stream as /api/v1/events/stream, for the signed-in browser.
      // A GET that only reads: other sites cannot read it (no CORS) and SameSite=Lax keeps the cookie off their requests.
      .get(
        "/events/stream",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) throw new AppError("unauthorized", "Sign in to follow live updates.");
          return openEventStream(s.live, {
            userId: me.user.id,
            lastEventId: request.headers.get("last-event-id") ?? query.last_event_id,
            signal: request.signal,
            setIdleTimeout: (seconds) => setIdleTimeout(request, seconds),
          });
        }),
      )
  );
}
