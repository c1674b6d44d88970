// The whole-account export: versioned JSON (docs/import-export.md) or Netscape bookmark HTML, written as
// a stream page by page so a large library never sits in memory at once.
import type { Actor } from "../../actor.ts";
import { walk } from "../../paging.ts";
import type { Clock } from "../../time.ts";
import type { FeedsService } from "../feeds/service.ts";
import type { NotebooksService } from "../library/notebooks/service.ts";
import type { HighlightsService } from "../library/highlights/service.ts";
import type { NotesService } from "../library/notes/service.ts";
import type { PodcastsService } from "../podcasts/service.ts";
import type { SourcesService } from "../library/sources/service.ts";
import type { WorkflowsService } from "../workflows/service.ts";
import { EXPORT_FORMAT_NAME, EXPORT_VERSION } from "./formats/commonplace.ts";

const PAGE = 200;
type Json = Record<string, unknown>;

/** A byte stream pulling text from a generator, one part per pull (back-pressure keeps memory flat). */
function textStream(it: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(enc.encode(value));
    },
    async cancel() {
      await it.return(undefined);
    },
  });
}

function stripWorkflowSecrets(w: Json): Json {
  const { signing_secret: _s, webhook_url: _u, ...rest } = w;
  // Header values of outgoing requests often carry tokens: the names are kept, the values are not.
  const actions = JSON.parse(JSON.stringify(rest["actions"] ?? []), (k, v) =>
    k === "headers" && v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).map((h) => [h, "[removed]"]))
      : v,
  ) as unknown[];
  return { ...rest, actions };
}

/** The services an export reads, page by page. */
export interface ExportDeps {
  clock: Clock;
  notebooks: NotebooksService;
  sources: SourcesService;
  notes: NotesService;
  highlights: Pick<HighlightsService, "list">;
  podcasts: PodcastsService;
  workflows: WorkflowsService;
  feeds: FeedsService;
}

export function exportJson(s: ExportDeps, actor: Actor, user: Json): ReadableStream<Uint8Array> {
  async function* parts(): AsyncGenerator<string> {
    yield `{"format":${JSON.stringify(EXPORT_FORMAT_NAME)},"version":${EXPORT_VERSION},"exported_at":${JSON.stringify(new Date(s.clock.now()).toISOString())},"account":${JSON.stringify(user)}`;
    async function* section(name: string, items: AsyncGenerator<unknown>): AsyncGenerator<string> {
      yield `,${JSON.stringify(name)}:[`;
      let first = true;
      for await (const it of items) {
        yield (first ? "" : ",") + JSON.stringify(it);
        first = false;
      }
      yield "]";
    }
    yield* section(
      "notebooks",
      walk((cursor) => s.notebooks.list(actor, { limit: PAGE, cursor })),
    );
    yield* section(
      "sources",
      walk((cursor) => s.sources.listWithContent(actor, { limit: PAGE, cursor })),
    );
    yield* section(
      "notes",
      walk((cursor) => s.notes.list(actor, { limit: PAGE, cursor })),
    );
    yield* section(
      "highlights",
      walk((cursor) => s.highlights.list(actor, { limit: PAGE, cursor })),
    );
    yield* section(
      "podcasts",
      walk((cursor) => s.podcasts.list(actor, { limit: PAGE, cursor })),
    );
    yield* section(
      "workflows",
      (async function* () {
        for await (const w of walk((cursor) => s.workflows.list(actor, { limit: PAGE, cursor })))
          yield stripWorkflowSecrets(w as unknown as Json);
      })(),
    );
    yield* section(
      "feed_watches",
      walk((cursor) => s.feeds.list(actor, { limit: PAGE, cursor })),
    );
    yield "}\n";
  }
  return textStream(parts());
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Netscape bookmark HTML: a folder per notebook (names joined with " / " become nested folders again),
 * sources in no notebook at the top level. A source in several notebooks appears in each.
 */
export function exportNetscape(s: ExportDeps, actor: Actor): ReadableStream<Uint8Array> {
  async function* parts(): AsyncGenerator<string> {
    yield `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->\n<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n`;
    const link = (r: { url: string; title: string | null; saved_at: string; tags: string[] }, depth: number) =>
      `${"    ".repeat(depth)}<DT><A HREF="${esc(r.url)}" ADD_DATE="${secs(r.saved_at)}"${r.tags.length ? ` TAGS="${esc(r.tags.join(","))}"` : ""}>${esc(r.title ?? r.url)}</A>\n`;
    const notebooks: { id: string; name: string; created_at: string }[] = [];
    for await (const nb of walk((cursor) => s.notebooks.list(actor, { limit: PAGE, cursor }))) notebooks.push(nb);
    notebooks.sort((a, b) => a.name.localeCompare(b.name));
    // Folders open and close as the sorted path changes: "Work" then "Work / Reading" nests.
    const open: string[] = [];
    for (const nb of notebooks) {
      const path = nb.name.split(" / ");
      let common = 0;
      while (common < open.length && common < path.length && open[common] === path[common]) common++;
      while (open.length > common) {
        yield `${"    ".repeat(open.length)}</DL><p>\n`;
        open.pop();
      }
      while (open.length < path.length) {
        const name = path[open.length]!;
        yield `${"    ".repeat(open.length + 1)}<DT><H3 ADD_DATE="${secs(nb.created_at)}">${esc(name)}</H3>\n${"    ".repeat(open.length + 1)}<DL><p>\n`;
        open.push(name);
      }
      for await (const r of walk((cursor) => s.sources.list(actor, { limit: PAGE, cursor, notebookId: nb.id })))
        yield link(r, open.length + 1);
    }
    while (open.length > 0) {
      yield `${"    ".repeat(open.length)}</DL><p>\n`;
      open.pop();
    }
    for await (const r of walk((cursor) => s.sources.list(actor, { limit: PAGE, cursor }))) {
      if (r.notebook_ids.length === 0) yield link(r, 1);
    }
    yield "</DL><p>\n";
  }
  return textStream(parts());
}
