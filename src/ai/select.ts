// Chooses the AI adapters from config in one place: builtin offline engines by default, an
// OpenAI-compatible server when AI_BASE_URL and the model variables are set.
import type { Config } from "../config.ts";
import type { SafeFetch } from "../net/safe-fetch.ts";
import { createBuiltinChat } from "./chat/builtin.ts";
import { createOpenAIChat } from "./chat/openai.ts";
import type { ChatModel } from "./chat/port.ts";
import { createBuiltinEmbedder } from "./embedder/builtin.ts";
import { createOpenAIEmbedder } from "./embedder/openai.ts";
import { createNeuralEmbedder } from "./embedder/neural.ts";
import type { Embedder } from "./embedder/port.ts";
import { createOpenAIClient, type FetchLike, type OpenAIClient } from "./openai-client.ts";
import { createBuiltinSpeech } from "./speech/builtin.ts";
import { createOpenAISpeech } from "./speech/openai.ts";
import type { SpeechEngine } from "./speech/port.ts";

/** Adapts safeFetch to the fetch shape the OpenAI client expects. */
export function fetchThrough(safeFetch: SafeFetch, timeoutMs: number): FetchLike {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const res = await safeFetch(url, {
      method: init?.method ?? "GET",
      headers,
      body: typeof init?.body === "string" ? init.body : undefined,
      signal: init?.signal ?? undefined,
      // A model may think for a while before the first byte of its answer: the whole call waits for it.
      timeoutMs,
      maxBytes: 64 * 1024 * 1024,
    });
    return new Response(res.status === 204 || res.status === 304 ? null : (res.body as Uint8Array<ArrayBuffer>), {
      status: res.status,
      headers: res.headers,
    });
  };
}

export interface AI {
  client: OpenAIClient | null;
  embedder: Embedder;
  chat: ChatModel;
  /** Builtin Flite voices by default; `/v1/audio/speech` when AI_BASE_URL and AI_TTS_MODEL are set. */
  speech: SpeechEngine;
  /** The embedder for a stored model id, if it can still be computed (for searches during re-embedding). */
  embedderFor(model: string): Embedder | null;
}

export function createAI(config: Config, safeFetch: SafeFetch): AI {
  const hashedEmbedder = createBuiltinEmbedder();
  const builtinEmbedder =
    config.ai.embedder === "hashed" ? hashedEmbedder : createNeuralEmbedder({ idleMs: config.ai.embedderIdleMs });
  const client = config.ai.baseUrl
    ? createOpenAIClient({
        baseUrl: config.ai.baseUrl,
        apiKey: config.ai.apiKey,
        timeoutMs: config.ai.timeoutMs,
        fetch: fetchThrough(safeFetch, config.ai.timeoutMs),
      })
    : null;
  const embedder =
    client && config.ai.embeddingModel
      ? createOpenAIEmbedder({ client, model: config.ai.embeddingModel })
      : builtinEmbedder;
  const chat =
    client && config.ai.chatModel
      ? createOpenAIChat({ client, model: config.ai.chatModel })
      : createBuiltinChat({ embedder });
  const speech =
    config.ai.baseUrl && config.ai.ttsModel
      ? createOpenAISpeech({
          // The adapter appends /v1/audio/speech itself; a base already ending in /v1 must not get a second one.
          baseUrl: config.ai.baseUrl.replace(/\/v1\/?$/, ""),
          apiKey: config.ai.apiKey,
          model: config.ai.ttsModel,
          timeoutMs: config.ai.timeoutMs,
          fetch: fetchThrough(safeFetch, config.ai.timeoutMs),
        })
      : // Each Flite call restarts the WASI program (~50 ms); longer chunks pay that less often.
        createBuiltinSpeech({ maxChunkChars: 800 });
  return {
    client,
    embedder,
    chat,
    speech,
    // The hashed embedder costs nothing to keep: searches still work while a switch to it re-embeds.
    embedderFor: (model) =>
      model === embedder.id
        ? embedder
        : model === builtinEmbedder.id
          ? builtinEmbedder
          : model === hashedEmbedder.id
            ? hashedEmbedder
            : null,
  };
}
