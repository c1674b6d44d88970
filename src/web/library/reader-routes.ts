// Web routes of the reader: the page, its script, and the reader's own forms — typography and theme
// (kept per user), archive / favorite / read, tags, and the progress the script saves as one scrolls.
import { Elysia } from "elysia";
import { AppError, ERROR_CODES, invalid } from "../../errors.ts";
import {
  READER_FONTS,
  READER_THEMES,
  READER_WIDTHS,
  type PreferencesUpdate,
} from "../../features/accounts/preferences.ts";
import { metaOf } from "../../http/context.ts";
import type { Flash } from "../../http/html/html.ts";
import { problemResponse } from "../../http/problem.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { flashOf, here, signInFirst } from "./common.ts";
import { readerResponder, type ReaderDeps } from "./reader-response.ts";
import { READER_SCRIPT } from "./reader-script.ts";
import { NOTICES as SOURCE_NOTICES } from "./source-routes.ts";

export const READER_NOTICES: Record<string, Flash> = {
  archived: { kind: "ok", text: "Archived: it is out of your inbox." },
  unarchived: { kind: "ok", text: "Moved back to the inbox." },
  favorited: { kind: "ok", text: "Added to your favorites." },
  unfavorited: { kind: "ok", text: "Removed from your favorites." },
  read: { kind: "ok", text: "Marked as read." },
  unread: { kind: "ok", text: "Marked as unread." },
  tags_saved: { kind: "ok", text: "Tags saved." },
  settings_saved: { kind: "ok", text: "Reading settings saved." },
  highlight_saved: { kind: "ok", text: "Highlight saved." },
  highlight_deleted: { kind: "ok", text: "Highlight deleted." },
};
const STATE_FIELDS = ["archived", "favorite", "read"] as const;
const STATE_NOTICES = {
  archived: ["archived", "unarchived"],
  favorite: ["favorited", "unfavorited"],
  read: ["read", "unread"],
} as const;
const DECIMAL = /^(0|1)(\.\d{1,6})?$|^\.\d{1,6}$/;

/** The "Aa" form's fields as a preferences change; a field sent must be valid, and one must be sent. */
export function readPreferencesForm(body: unknown): PreferencesUpdate {
  const patch: PreferencesUpdate = {};
  const font = formField(body, "reader_font");
  const size = formField(body, "reader_size");
  const lh = formField(body, "reader_line_height");
  const width = formField(body, "reader_width");
  const theme = formField(body, "reader_theme");
  const oneOf = <T extends string>(v: string, allowed: readonly T[]): v is T =>
    (allowed as readonly string[]).includes(v);
  if (font) {
    if (!oneOf(font, READER_FONTS)) throw invalid("reader_font", "Choose serif or sans.");
    patch.reader_font = font;
  }
  if (size) {
    const n = Number(size);
    if (!/^\d{2}$/.test(size) || n < 14 || n > 26) throw invalid("reader_size", "Choose a size from 14 to 26 px.");
    patch.reader_size = n;
  }
  if (lh) {
    const n = Number(lh);
    if (!/^\d(\.\d{1,3})?$/.test(lh) || n < 1.2 || n > 2.2)
      throw invalid("reader_line_height", "Choose a line spacing from 1.2 to 2.2.");
    patch.reader_line_height = n;
  }
  if (width) {
    if (!oneOf(width, READER_WIDTHS)) throw invalid("reader_width", "Choose narrow, medium or wide.");
    patch.reader_width = width;
  }
  if (theme) {
    if (!oneOf(theme, READER_THEMES)) throw invalid("reader_theme", "Choose auto, light, sepia or dark.");
    patch.reader_theme = theme;
  }
  if (!Object.keys(patch).length) throw invalid("reader_font", "Choose at least one setting.");
  return patch;
}

/** Tags typed as "a, b, c": trimmed, without repeats, each 1–100 characters, at most 100. */
export function readTagsForm(body: unknown): string[] {
  const tags = [
    ...new Set(
      formField(body, "tags")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (tags.length > 100) throw invalid("tags", "A source keeps at most 100 tags.");
  if (tags.some((t) => t.length > 100)) throw invalid("tags", "A tag is at most 100 characters long.");
  return tags;
}

export function readerWebRoutes(s: ReaderDeps, h: WebHelpers) {
  const readerResponse = readerResponder(s, h);

  /** The POST's signed-in person, or a redirect to sign in and come back to the reader. */
  async function sourcePost(request: Request, body: unknown, id: string): Promise<SignedIn | Response> {
    const me = await h.checkSessionPost(request, body);
    return me ?? signInFirst(`/library/sources/${id}`);
  }

  /** For the script's requests: errors as problem+json (a page would be of no use to it). */
  const json =
    (fn: (ctx: { request: Request; body: unknown; params: Record<string, string | undefined> }) => Promise<Response>) =>
    async (ctx: { request: Request; body: unknown; params: Record<string, string | undefined> }) => {
      try {
        return await fn(ctx);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return problemResponse({
          code: e.code,
          detail: e.detail ?? ERROR_CODES[e.code][1],
          errors: e.extra.errors,
          requestId: metaOf(ctx.request).id,
        });
      }
    };

  return (
    new Elysia()
      // GET /assets/reader.js — versioned by its path's ?v=, so it may be cached for good.
      .get(
        "/assets/reader.js",
        () =>
          new Response(READER_SCRIPT, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
            },
          }),
      )
      // GET /library/sources/:id — the reader
      .get(
        "/library/sources/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const flash = flashOf(READER_NOTICES, query.notice) ?? flashOf(SOURCE_NOTICES, query.notice);
          return readerResponse(me, params.id ?? "", { flash });
        }),
      )
      // POST /library/sources/:id/reader/preferences — the "Aa" panel; the script sends the same form
      .post(
        "/library/sources/:id/reader/preferences",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          let patch: PreferencesUpdate;
          try {
            patch = readPreferencesForm(body);
          } catch (e) {
            if (!(e instanceof AppError) || e.code !== "validation_failed") throw e;
            return readerResponse(me, id, { settings: { error: e.extra.errors?.[0]?.message }, status: 422 });
          }
          await s.sources.get(me.actor, id);
          await s.accounts.updatePreferences(me.user.id, patch);
          return redirect(`/library/sources/${id}?notice=settings_saved`);
        }),
      )
      // POST /library/sources/:id/reader/state — one of archived, favorite, read: "true" or "false"
      .post(
        "/library/sources/:id/reader/state",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          const field = STATE_FIELDS.find((f) => formField(body, f) !== "");
          const value = field ? formField(body, field) : "";
          if (!field || (value !== "true" && value !== "false"))
            throw invalid(field ?? "archived", "Send one of archived, favorite or read, as true or false.");
          await s.sources.update(me.actor, id, { [field]: value === "true" });
          return redirect(`/library/sources/${id}?notice=${STATE_NOTICES[field][value === "true" ? 0 : 1]}`);
        }),
      )
      // POST /library/sources/:id/reader/tags — the tags, comma-separated, replacing the old ones
      .post(
        "/library/sources/:id/reader/tags",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          await s.sources.update(me.actor, id, { tags: readTagsForm(body) });
          return redirect(`/library/sources/${id}?notice=tags_saved`);
        }),
      )
      // POST /library/sources/:id/reader/progress — the script's saved place, 0..1; 204, or problem+json
      .post(
        "/library/sources/:id/reader/progress",
        json(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) throw new AppError("unauthorized", "Sign in to save your place.");
          const raw = formField(body, "progress").trim();
          const progress = Number(raw);
          if (!DECIMAL.test(raw) || !(progress >= 0 && progress <= 1))
            throw invalid("progress", "A number from 0 to 1 (how far into the article).");
          await s.sources.update(me.actor, params.id ?? "", { progress });
          return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
        }),
      )
  );
}
