// POST /api/v1/search and POST /api/v1/search/ask.
import { Elysia } from "elysia";
import { actorOf } from "../../http/auth.ts";
import type { AskService } from "./ask.ts";
import type { SearchService } from "./service.ts";
import { AskRequest, AskResponse, SearchRequest, SearchResponse } from "./schema.ts";

export function searchRoutes(s: { search: SearchService; ask: AskService }) {
  return (
    new Elysia({ prefix: "/search", tags: ["Search"] })
      // POST /api/v1/search
      .post(
        "/",
        async ({ request, body }) => {
          const mode = body.mode ?? "text";
          const data = await s.search.search(actorOf(request), body.query, {
            mode,
            types: body.types,
            notebookId: body.notebook_id,
            limit: body.limit ?? 10,
          });
          return { mode, data };
        },
        {
          body: SearchRequest,
          response: SearchResponse,
          detail: {
            operationId: "search",
            summary: "Search sources and notes by words, meaning or both",
            description:
              "`text` ranks by BM25 over the full text, `vector` by meaning over chunk embeddings, `hybrid` fuses both rankings. Results are grouped per source or note, with the best passage as snippet.",
          },
        },
      )
      // POST /api/v1/search/ask
      .post("/ask", ({ request, body }) => s.ask.ask(actorOf(request), body), {
        body: AskRequest,
        response: AskResponse,
        detail: {
          operationId: "ask",
          summary: "Ask a question; the answer cites passages of your library",
          description:
            "Retrieves the best passages and answers with `[n]` markers matching `citations[].n`. Costs credits when an answer is given; 402 when the allowance is spent (nothing is charged).",
        },
      })
  );
}
