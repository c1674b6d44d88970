// Ask: retrieve the best passages (hybrid), let the chat model answer with [n] markers, verify the
// citations, and charge credits only for a successful answer.
import type { ChatModel } from "../../ai/chat/port.ts";
import { AIError, aiErrorToAppError } from "../../ai/openai-client.ts";
import { contentStems } from "../../ai/text.ts";
import type { Config } from "../../config.ts";
import { invalid, notFound } from "../../errors.ts";
import type { Actor } from "../../actor.ts";
import type { CreditsService } from "../credits/service.ts";
import type { LibraryReader } from "../library/reader.ts";
import { verifyCitations } from "./citations.ts";
import type { AskRequest, AskResponse, Citation } from "./schema.ts";
import type { SearchService } from "./service.ts";

const PASSAGES = 6;
export const NOTHING_FOUND = "I could not find anything about this in your library.";

export function createAskService(deps: {
  search: SearchService;
  chat: ChatModel;
  credits: CreditsService;
  library: Pick<LibraryReader, "existingNotebookIds" | "sourcesByIds">;
  config: Config;
}) {
  const { search, chat, credits, config } = deps;

  /** A model server that fails, stalls or talks nonsense is a 502/503 problem, never a 500. */
  async function answerOrProblem(question: string, passages: Parameters<ChatModel["answer"]>[1]): Promise<string> {
    try {
      return await chat.answer(question, passages);
    } catch (err) {
      throw err instanceof AIError ? aiErrorToAppError(err) : err;
    }
  }

  /** The passages the model answers from: hybrid's best, each sharing a content word with the question. */
  async function relevantPassages(actor: Actor, input: AskRequest) {
    const found = await search.passages(
      actor,
      input.question,
      { mode: "hybrid", notebookId: input.notebook_id, sourceIds: input.source_ids, limit: PASSAGES },
      PASSAGES,
    );
    // Vector neighbours alone are always "nearest" and would let the model answer from unrelated text.
    const q = new Set(contentStems(input.question));
    return found.filter((p) => contentStems(`${p.row.title} ${p.row.text}`).some((t) => q.has(t)));
  }

  return {
    /** What ask hands the model, numbered as in its answer (for fitting and evaluating the answerer). */
    async passages(actor: Actor, input: AskRequest) {
      return (await relevantPassages(actor, input)).map((p, i) => ({
        n: i + 1,
        title: p.row.title || null,
        text: p.row.text,
      }));
    },

    async ask(actor: Actor, input: AskRequest): Promise<AskResponse> {
      const cost = config.credits.askCost;
      if (input.notebook_id && (await deps.library.existingNotebookIds(actor.userId, [input.notebook_id])).size === 0)
        throw notFound("Notebook");
      if (input.source_ids) {
        const owned = new Set((await deps.library.sourcesByIds(actor.userId, input.source_ids)).map((s) => s.id));
        input.source_ids.forEach((id, i) => {
          if (!owned.has(id)) throw invalid(`source_ids[${i}]`, `source ${id} does not exist`);
        });
      }
      await credits.ensure(actor.userId, cost);

      const relevant = await relevantPassages(actor, input);
      const balance = async () => (await credits.balance(actor.userId)).remaining;
      const nothing = async (): Promise<AskResponse> => ({
        answer: NOTHING_FOUND,
        citations: [],
        model: chat.id,
        extractive: chat.extractive,
        credits_used: 0,
        credits_remaining: await balance(),
      });
      if (relevant.length === 0) return nothing();

      const passages = relevant.map((p, i) => ({ n: i + 1, row: p.row, source: p.source }));
      const raw = await answerOrProblem(
        input.question,
        passages.map((p) => ({ n: p.n, title: p.row.title || null, text: p.row.text })),
      );
      if (!raw.trim()) return nothing();
      const verified = verifyCitations(raw, passages);
      const info = await deps.library.sourcesByIds(
        actor.userId,
        verified.citations.filter((c) => c.row.docType === "source").map((c) => c.row.docId),
      );
      const urls = new Map(info.map((s) => [s.id, { url: s.url, title: s.title }]));
      const sourceOf = new Map(passages.flatMap((p) => (p.source ? [[p.row.chunkId, p.source] as const] : [])));
      const spent = await credits.spend(actor.userId, cost, "ask");
      return {
        answer: verified.answer,
        citations: verified.citations.map((c): Citation => {
          // A highlight is cited as its source, naming the highlight.
          const hl = c.row.docType === "highlight" ? sourceOf.get(c.row.chunkId) : undefined;
          if (hl)
            return {
              n: c.n,
              type: "source",
              id: hl.id,
              highlight_id: c.row.docId,
              title: hl.title,
              url: hl.url,
              quote: c.quote,
              chunk_id: c.row.chunkId,
            };
          const isSource = c.row.docType === "source";
          return {
            n: c.n,
            type: isSource ? "source" : "note",
            id: c.row.docId,
            title: isSource ? (urls.get(c.row.docId)?.title ?? null) : c.row.title || null,
            url: isSource ? (urls.get(c.row.docId)?.url ?? null) : null,
            quote: c.quote,
            chunk_id: c.row.chunkId,
          };
        }),
        model: chat.id,
        extractive: chat.extractive,
        credits_used: cost,
        credits_remaining: spent.remaining,
      };
    },
  };
}
export type AskService = ReturnType<typeof createAskService>;
