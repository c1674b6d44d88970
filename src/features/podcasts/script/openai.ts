// The model-written script: an outline first, then the transcript segment by segment as JSON
// [{speaker, text}], each reply validated and asked again when malformed, then a clear failure.
import type { ChatMessage, ChatModel } from "../../../ai/chat/port.ts";
import { WORDS_PER_MINUTE, type FormatSpec } from "../formats.ts";
import { readUnabridged } from "./builtin.ts";
import { ScriptError, type ScriptRequest, type ScriptWriter, type Turn } from "./port.ts";
import { parseOutline, parseTurns, ReplyError, type OutlineSegment } from "./validate.ts";

export interface OpenAIScriptOptions {
  chat: ChatModel;
  /** Source text sent to the model, in characters, shared among the sources. */
  maxSourceChars?: number;
  /** Tries per reply (the first answer plus corrections). */
  tries?: number;
}

const MAX_SEGMENTS = 6;

function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function sourceBlock(req: ScriptRequest, maxChars: number): string {
  const share = Math.floor(maxChars / Math.max(1, req.documents.length));
  return req.documents
    .map((d, i) => {
      const body =
        d.markdown.length > share
          ? `${d.markdown.slice(0, share)}\n[…the rest of this source is cut for length]`
          : d.markdown;
      return `<source n="${i + 1}" title="${d.title.replace(/"/g, "'")}">\n${body}\n</source>`;
    })
    .join("\n\n");
}

function system(spec: FormatSpec, language: string): string {
  const people = spec.speakers.map((s) => `${s.name} (${s.role})`).join(" and ");
  return [
    `You write scripts for a podcast episode in the "${spec.label}" format: ${spec.description}`,
    `Speakers: ${people}. Use exactly these names and no one else.`,
    `Structure: ${spec.structure.join("; ")}.`,
    `Write in ${languageName(language)}, as natural spoken language: no headings, lists, stage directions, sound effects or Markdown.`,
    "Use only facts from the sources given; do not invent figures, names or quotes. Say plainly when the sources do not cover something.",
    "Reply with JSON only.",
  ].join("\n");
}

export function createOpenAIScriptWriter(opts: OpenAIScriptOptions): ScriptWriter {
  const { chat } = opts;
  const complete = chat.complete;
  if (!complete) throw new Error("createOpenAIScriptWriter needs a chat model that can complete free text");
  const tries = Math.max(1, opts.tries ?? 3);
  const maxSourceChars = opts.maxSourceChars ?? 24_000;

  /** Asks, validates, and on a bad reply shows the model what was wrong and asks again. */
  async function askJSON<T>(
    messages: ChatMessage[],
    parse: (reply: string) => T,
    what: string,
    signal?: AbortSignal,
  ): Promise<T> {
    const convo = [...messages];
    let last = "";
    for (let attempt = 1; attempt <= tries; attempt++) {
      const reply = await complete!(convo, { json: true, signal, temperature: 0.6 });
      try {
        return parse(reply);
      } catch (e) {
        if (!(e instanceof ReplyError)) throw e;
        last = e.message;
        convo.push(
          { role: "assistant", content: reply },
          { role: "user", content: `That reply cannot be used: ${e.message}. Send the corrected JSON only.` },
        );
      }
    }
    throw new ScriptError(
      "script_invalid",
      `The chat model (${chat.id}) sent an unusable ${what} ${tries} times; the last problem: ${last}`,
    );
  }

  async function outline(req: ScriptRequest, sources: string): Promise<OutlineSegment[]> {
    const minutes = Math.round((req.spec.targetWords ?? 0) / WORDS_PER_MINUTE);
    const ask = [
      `Sources:\n\n${sources}`,
      `Plan a ${minutes}-minute episode titled "${req.title}". Split it into 2 to ${MAX_SEGMENTS} segments following the structure.`,
      'Reply as {"segments": [{"title": "…", "points": ["…"]}]} where points are the facts from the sources each segment covers.',
    ].join("\n\n");
    return askJSON(
      [
        { role: "system", content: system(req.spec, req.language) },
        { role: "user", content: ask },
      ],
      (r) => parseOutline(r, MAX_SEGMENTS),
      "outline",
      req.signal,
    );
  }

  async function segment(
    req: ScriptRequest,
    sources: string,
    plan: OutlineSegment[],
    i: number,
    before: Turn[],
  ): Promise<Turn[]> {
    const names = req.spec.speakers.map((s) => s.name);
    const words = Math.round((req.spec.targetWords ?? 600) / plan.length);
    const seg = plan[i]!;
    const recap = before
      .slice(-3)
      .map((t) => `${t.speaker}: ${t.text}`)
      .join("\n");
    const ask = [
      `Sources:\n\n${sources}`,
      `Outline:\n${plan.map((s, n) => `${n + 1}. ${s.title}${s.points.length ? ` — ${s.points.join("; ")}` : ""}`).join("\n")}`,
      recap ? `The script so far ends with:\n${recap}` : "This is the opening segment.",
      `Write segment ${i + 1} of ${plan.length}, "${seg.title}", about ${words} words${i === plan.length - 1 ? ", closing the episode" : ""}.`,
      `Reply as {"turns": [{"speaker": "${names[0]}", "text": "…"}]} with speaker one of: ${names.join(", ")}.`,
    ].join("\n\n");
    const messages: ChatMessage[] = [
      { role: "system", content: system(req.spec, req.language) },
      { role: "user", content: ask },
    ];
    return askJSON(messages, (r) => parseTurns(r, names), `transcript for segment ${i + 1}`, req.signal);
  }

  return {
    id: chat.id,
    async write(req) {
      // Reading a source in full needs no model, and a model could only shorten it.
      if (req.spec.name === "unabridged") return readUnabridged(req);
      const sources = sourceBlock(req, maxSourceChars);
      if (!req.documents.some((d) => d.markdown.trim()))
        throw new ScriptError("no_content", "The sources have no text to make an episode from");
      const plan = await outline(req, sources);
      const turns: Turn[] = [];
      for (let i = 0; i < plan.length; i++) turns.push(...(await segment(req, sources, plan, i, turns)));
      return turns;
    },
  };
}
