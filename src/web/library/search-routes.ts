// Web routes for search (GET, no side effects) and ask (POST: it spends credits).
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import { SEARCH_MODES } from "../../features/search/schema.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { here, ID_RE, PICKER_LIMIT, signInFirst } from "./common.ts";
import { searchPage, type AskState, type SearchPageInput, type SearchQuery } from "./search-pages.ts";

const RESULTS = 20;
const MAX_QUERY = 1000;
const MAX_QUESTION = 2000;

/** Problems a person can meet here, said plainly; anything else is a real error page. */
export function askProblem(e: unknown): { status: number; text: string } | undefined {
  if (!(e instanceof AppError)) return undefined;
  if (e.code === "insufficient_credit") {
    return {
      status: 402,
      text: `You are out of AI credits for now. ${e.detail ?? e.message}. Searching stays free; asking works again when your allowance renews.`,
    };
  }
  if (e.code === "upstream_error" || e.code === "service_unavailable") {
    return {
      status: e.status,
      text: `The AI model server could not answer: ${e.detail ?? e.message}. Try again later, or use text search.`,
    };
  }
  return undefined;
}

function readQuery(query: Record<string, string | undefined>): SearchQuery {
  const mode = SEARCH_MODES.find((m) => m === query.mode) ?? "text";
  const type = query.type === "source" || query.type === "note" || query.type === "highlight" ? query.type : "";
  const notebook = ID_RE.notebook.test(query.notebook ?? "") ? query.notebook : undefined;
  return { q: (query.q ?? "").trim().slice(0, MAX_QUERY), mode, type, notebook };
}

export function searchWebRoutes(s: Pick<WebDeps, "ask" | "notebooks" | "search">, h: WebHelpers) {
  async function render(me: SignedIn, p: Omit<SearchPageInput, "user" | "notebooks">): Promise<Response> {
    return searchPage({
      user: h.layoutUser(me),
      notebooks: (await s.notebooks.list(me.actor, { limit: PICKER_LIMIT })).data,
      ...p,
    });
  }

  return (
    new Elysia()
      // GET /search?q=&mode=&type=&notebook=
      .get(
        "/search",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const q = readQuery(query);
          if (!q.q) return render(me, { query: q });
          try {
            const hits = await s.search.search(me.actor, q.q, {
              mode: q.mode,
              types: q.type ? [q.type] : undefined,
              notebookId: q.notebook,
              limit: RESULTS,
            });
            return await render(me, { query: q, hits });
          } catch (e) {
            const f = askProblem(e);
            if (!f) throw e;
            return render(me, { query: q, searchError: f.text, status: f.status });
          }
        }),
      )
      // GET /search/ask — where a reload lands after the answer page replaced its history entry
      .get("/search/ask", () => redirect("/search"))
      // POST /search/ask
      .post(
        "/search/ask",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/search");
          const question = formField(body, "question").trim();
          const nb = formField(body, "notebook_id");
          const notebook = ID_RE.notebook.test(nb) ? nb : undefined;
          const query: SearchQuery = { q: "", mode: "text", type: "", notebook };
          const ask: AskState = { question, notebook };
          if (!question || question.length > MAX_QUESTION) {
            ask.error = question ? "The question is longer than 2000 characters." : "Write a question first.";
            return render(me, { query, ask, status: 422 });
          }
          try {
            ask.result = await s.ask.ask(me.actor, { question, notebook_id: notebook });
            return await render(me, { query, ask });
          } catch (e) {
            const f = askProblem(e);
            if (!f) throw e;
            ask.error = f.text;
            return render(me, { query, ask, status: f.status });
          }
        }),
      )
  );
}
