// Web routes for highlights in the reader: make one from a selection (the script's JSON request),
// recolour / annotate and delete (forms that work without script; with `Accept: application/json`
// they answer 200/204 or problem+json), and the highlights column alone for the script to swap in.
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { AppError, ERROR_CODES, invalid } from "../../errors.ts";
import { HIGHLIGHT_COLORS, HighlightCreate, type HighlightUpdate } from "../../features/library/highlights/schema.ts";
import { metaOf } from "../../http/context.ts";
import { pageHeaders } from "../../http/html/html.ts";
import { problemResponse } from "../../http/problem.ts";
import type { WebDeps } from "../deps.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { lf, signInFirst } from "./common.ts";
import { highlightsColumn } from "./reader-highlights.ts";

type Ctx = { request: Request; body: unknown; params: Record<string, string | undefined> };
const MAX_NOTE = 10_000;

const wantsJson = (request: Request) => (request.headers.get("accept") ?? "").includes("application/json");

function problemOf(request: Request, e: AppError): Response {
  return problemResponse({
    code: e.code,
    detail: e.detail ?? ERROR_CODES[e.code][1],
    errors: e.extra.errors,
    requestId: metaOf(request).id,
  });
}

/** The selection the script sends, as the API's create input; a bad field is named. */
export function readHighlightForm(body: unknown, sourceId: string): HighlightCreate {
  const int = (name: string) => {
    const v = formField(body, name);
    return /^\d{1,9}$/.test(v) ? Number(v) : undefined;
  };
  const start = int("start");
  const end = int("end");
  const note = lf(formField(body, "note")).trim();
  const input: Record<string, unknown> = {
    source_id: sourceId,
    exact: formField(body, "exact"),
    color: formField(body, "color") || "yellow",
  };
  const prefix = formField(body, "prefix");
  const suffix = formField(body, "suffix");
  if (prefix) input.prefix = prefix;
  if (suffix) input.suffix = suffix;
  if (start !== undefined && end !== undefined && end >= start) input.position = { start, end };
  if (note) input.note = note;
  const error = [...Value.Errors(HighlightCreate, input)][0];
  if (error) {
    const path = error.path.split("/")[1] || "exact";
    throw invalid(path, error.message);
  }
  return input as HighlightCreate;
}

function readUpdateForm(body: unknown): HighlightUpdate {
  const patch: HighlightUpdate = {};
  const color = formField(body, "color");
  if (color) {
    if (!(HIGHLIGHT_COLORS as readonly string[]).includes(color))
      throw invalid("color", `One of: ${HIGHLIGHT_COLORS.join(", ")}.`);
    patch.color = color as HighlightUpdate["color"];
  }
  if (body && typeof body === "object" && "note" in body) {
    const note = lf(formField(body, "note")).trim();
    if (note.length > MAX_NOTE) throw invalid("note", "A note is at most 10,000 characters.");
    patch.note = note || null;
  }
  if (!Object.keys(patch).length) throw invalid("note", "Send a colour or a note.");
  return patch;
}

export function readerHighlightRoutes(s: Pick<WebDeps, "highlights">, h: WebHelpers) {
  /** JSON requests get problem+json for their errors; forms get the error page. */
  const either =
    (fn: (ctx: Ctx) => Promise<Response>) =>
    async (ctx: Ctx): Promise<Response> => {
      if (!wantsJson(ctx.request)) return h.page(fn as never)(ctx as never);
      try {
        return await fn(ctx);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return problemOf(ctx.request, e);
      }
    };

  /** The highlight named in the path, checked to belong to the source in the path (and the person). */
  async function highlightOf(ctx: Ctx) {
    const me = await h.checkSessionPost(ctx.request, ctx.body);
    if (!me) {
      if (wantsJson(ctx.request)) throw new AppError("unauthorized", "Sign in to change highlights.");
      return signInFirst(`/library/sources/${ctx.params.id ?? ""}`);
    }
    const found = await s.highlights.get(me.actor, ctx.params.hid ?? "");
    if (found.source_id !== ctx.params.id) throw new AppError("not_found", "Highlight not found");
    return { me, found };
  }

  const back = (sourceId: string, notice: string, anchor = "r-highlights") =>
    redirect(`/library/sources/${sourceId}?notice=${notice}#${anchor}`);

  return (
    new Elysia()
      // GET /library/sources/:id/reader/highlights — the highlights column alone
      .get(
        "/library/sources/:id/reader/highlights",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(`/library/sources/${params.id ?? ""}`);
          const list = await s.highlights.forSource(me.actor, params.id ?? "");
          return new Response(highlightsColumn(h.layoutUser(me), params.id ?? "", list).value, {
            headers: pageHeaders(),
          });
        }),
      )
      // POST /library/sources/:id/reader/highlights — a selection becomes a highlight (201 JSON)
      .post("/library/sources/:id/reader/highlights", async ({ request, body, params }) => {
        try {
          const me = await h.checkSessionPost(request, body);
          if (!me) throw new AppError("unauthorized", "Sign in to highlight.");
          const made = await s.highlights.create(me.actor, readHighlightForm(body, params.id ?? ""));
          return new Response(JSON.stringify(made), {
            status: 201,
            headers: { "content-type": "application/json", "cache-control": "no-store" },
          });
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          // The source is the page's own address here: one that is not the person's is not found.
          const missing = e.code === "validation_failed" && e.extra.errors?.[0]?.path === "source_id";
          return problemOf(request, missing ? new AppError("not_found", "Source not found") : e);
        }
      })
      // POST /library/sources/:id/reader/highlights/:hid — recolour and/or annotate
      .post(
        "/library/sources/:id/reader/highlights/:hid",
        either(async (ctx) => {
          const got = await highlightOf(ctx);
          if (got instanceof Response) return got;
          const updated = await s.highlights.update(got.me.actor, got.found.id, readUpdateForm(ctx.body));
          if (wantsJson(ctx.request))
            return new Response(JSON.stringify(updated), { headers: { "content-type": "application/json" } });
          return back(updated.source_id, "highlight_saved", `hl-${updated.id}`);
        }),
      )
      // POST /library/sources/:id/reader/highlights/:hid/delete
      .post(
        "/library/sources/:id/reader/highlights/:hid/delete",
        either(async (ctx) => {
          const got = await highlightOf(ctx);
          if (got instanceof Response) return got;
          await s.highlights.delete(got.me.actor, got.found.id);
          if (wantsJson(ctx.request)) return new Response(null, { status: 204 });
          return back(got.found.source_id, "highlight_deleted");
        }),
      )
  );
}
