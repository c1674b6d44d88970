// The OpenAI-compatible chat model: POST /v1/chat/completions with numbered passages; the answer
// is verified afterwards by the ask service (unknown markers dropped, quotes taken verbatim).
import { AIError, type OpenAIClient } from "../openai-client.ts";
import type { ChatMessage, ChatModel, Passage } from "./port.ts";

const SYSTEM = [
  "You answer questions using only the numbered passages from the user's personal library.",
  "Cite every claim with the number of the passage that supports it, in square brackets, like [1] or [2][3].",
  "Do not cite a number that is not in the list. If the passages do not contain the answer, say so plainly instead of guessing.",
  "Answer in the language of the question, concisely.",
].join(" ");

export function formatPassages(passages: Passage[]): string {
  return passages.map((p) => `[${p.n}] ${p.title ? `${p.title}\n` : ""}${p.text}`).join("\n\n");
}

export function createOpenAIChat(opts: { client: OpenAIClient; model: string }): ChatModel {
  async function complete(
    messages: ChatMessage[],
    o: { json?: boolean; signal?: AbortSignal; temperature?: number } = {},
  ): Promise<string> {
    const reply = (await opts.client.postJSON(
      "/v1/chat/completions",
      {
        model: opts.model,
        messages,
        temperature: o.temperature ?? 0.2,
        ...(o.json ? { response_format: { type: "json_object" } } : {}),
      },
      { signal: o.signal },
    )) as { choices?: { message?: { content?: unknown } }[] } | null;
    const content = reply?.choices?.[0]?.message?.content;
    if (typeof content !== "string")
      throw new AIError("ai_bad_response", "POST /v1/chat/completions: the reply has no choices[0].message.content");
    return content;
  }
  return {
    id: opts.model,
    extractive: false,
    complete,
    answer: (question, passages, o) =>
      complete(
        [
          { role: "system", content: SYSTEM },
          { role: "user", content: `Passages:\n\n${formatPassages(passages)}\n\nQuestion: ${question}` },
        ],
        { signal: o?.signal },
      ),
  };
}
