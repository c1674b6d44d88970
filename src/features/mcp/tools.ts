// The MCP tools: each one is a TypeBox input schema taken from the HTTP API's schema.ts, an output
// schema, and a call into the same service the HTTP route uses, as the token's user.
import type { TSchema } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import { ListQuery, listOf } from "../../http/pagination.ts";
import type { HighlightsService } from "../library/highlights/service.ts";
import { highlightQuery } from "../library/highlights/service.ts";
import { HighlightCreate, HighlightListQuery, HighlightPublic } from "../library/highlights/schema.ts";
import type { NotebooksService } from "../library/notebooks/service.ts";
import type { NotesService } from "../library/notes/service.ts";
import type { AskService } from "../search/ask.ts";
import type { SearchService } from "../search/service.ts";
import type { SourcesService } from "../library/sources/service.ts";
import type { Actor } from "../../actor.ts";
import { NotebookPublic } from "../library/notebooks/schema.ts";
import { NoteCreate, NotePublic } from "../library/notes/schema.ts";
import { AskRequest, AskResponse, SearchRequest, SearchResponse } from "../search/schema.ts";
import { SourceCreate, SourceId, SourceListQuery, SourcePublic } from "../library/sources/schema.ts";
import { sourceQuery } from "../library/sources/list-query.ts";

export interface ToolServices {
  search: SearchService;
  ask: AskService;
  sources: SourcesService;
  notebooks: NotebooksService;
  notes: NotesService;
  highlights: HighlightsService;
}

export interface ToolDef<I extends TSchema = TSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: TSchema;
  readOnly: boolean;
  run(s: ToolServices, actor: Actor, args: Static<I>): Promise<Record<string, unknown>> | Record<string, unknown>;
}

const tool = <I extends TSchema>(def: ToolDef<I>): ToolDef => def as unknown as ToolDef;

const SearchInput = t.Pick(SearchRequest, ["query", "mode", "notebook_id", "limit"]);
const AskInput = t.Pick(AskRequest, ["question", "notebook_id"]);
const SaveInput = t.Pick(SourceCreate, ["url", "title", "notebook_ids"]);
const GetSourceInput = t.Object({ id: SourceId }, { additionalProperties: false });

export const TOOLS: ToolDef[] = [
  tool({
    name: "search",
    title: "Search the library",
    description:
      "Search the user's saved sources and notes. mode: text (keywords, default), vector (meaning) or hybrid. Returns the best passage of each match.",
    input: SearchInput,
    output: SearchResponse,
    readOnly: true,
    async run(s, actor, a) {
      const mode = a.mode ?? "text";
      return {
        mode,
        data: await s.search.search(actor, a.query, { mode, notebookId: a.notebook_id, limit: a.limit ?? 10 }),
      };
    },
  }),
  tool({
    name: "ask",
    title: "Ask the library",
    description:
      "Answer a question from the user's library with numbered citations ([1], [2]) pointing at passages. Costs the user AI credits.",
    input: AskInput,
    output: AskResponse,
    readOnly: true,
    run: (s, actor, a) => s.ask.ask(actor, a),
  }),
  tool({
    name: "save_source",
    title: "Save a link",
    description:
      "Save a web page or PDF to the library (fetched and indexed in the background). Saving a saved URL returns the existing source.",
    input: SaveInput,
    output: t.Object({ created: t.Boolean(), source: SourcePublic }),
    readOnly: false,
    async run(s, actor, a) {
      const { source, created } = await s.sources.create(actor, a);
      return { created, source };
    },
  }),
  tool({
    name: "list_sources",
    title: "List saved sources",
    description:
      "List saved sources, newest first: by when they were added, or with sort=saved_at by the original saved time (kept from imports). Filter by notebook_id, status, created_after or tag. Pass next_cursor back as cursor for the next page.",
    input: SourceListQuery,
    output: listOf(SourcePublic),
    readOnly: true,
    run: (s, actor, a) => s.sources.list(actor, sourceQuery(a)),
  }),
  tool({
    name: "get_source",
    title: "Read a source",
    description: "Get one saved source with its extracted Markdown content.",
    input: GetSourceInput,
    output: SourcePublic,
    readOnly: true,
    run: async (s, actor, a) => s.sources.publicOf(await s.sources.get(actor, a.id), true),
  }),
  tool({
    name: "list_notebooks",
    title: "List notebooks",
    description: "List the user's notebooks with their source and note counts, newest first.",
    input: ListQuery,
    output: listOf(NotebookPublic),
    readOnly: true,
    run: (s, actor, a) => s.notebooks.list(actor, { limit: a.limit ?? 20, cursor: a.cursor }),
  }),
  tool({
    name: "create_note",
    title: "Write a note",
    description: "Write a Markdown note, optionally in a notebook and linked to sources.",
    input: NoteCreate,
    output: NotePublic,
    readOnly: false,
    run: (s, actor, a) => s.notes.create(actor, a),
  }),
  tool({
    name: "list_highlights",
    title: "List highlights",
    description:
      "List the passages the user highlighted, newest first, with their notes and sources. Filter by source_id, notebook_id, a source's tag or created_after. Pass next_cursor back as cursor for the next page.",
    input: HighlightListQuery,
    output: listOf(HighlightPublic),
    readOnly: true,
    run: (s, actor, a) => {
      const { limit = 20, cursor, ...filters } = a;
      return s.highlights.list(actor, { limit, cursor, ...highlightQuery(filters) });
    },
  }),
  tool({
    name: "create_highlight",
    title: "Highlight a passage",
    description:
      "Highlight a verbatim passage (exact) of a ready source, optionally with a note and a colour. The quote must be in the source's text (get_source shows it); prefix and suffix tell several occurrences apart.",
    input: HighlightCreate,
    output: HighlightPublic,
    readOnly: false,
    run: (s, actor, a) => s.highlights.create(actor, a),
  }),
];
