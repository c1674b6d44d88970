// A local fake OpenAI-compatible server for tests: programmable replies, failures and hangs; records requests.
import { createBuiltinEmbedder } from "../src/ai/embedder/builtin.ts";

export interface FakeResponse {
  status?: number;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as text/plain unless headers say otherwise (useful for malformed JSON). */
  text?: string;
  /** Sent as application/octet-stream unless headers say otherwise. */
  body?: Uint8Array;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer: the request stays open until the client gives up or the server stops. */
  hang?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  /** Parsed JSON when the body was JSON, else the raw text. */
  body: unknown;
  headers: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeOpenAI {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: FakeRequest[];
  /** Queues one response for the next request to `path` (FIFO); afterwards the default applies again. */
  queue(path: string, response: FakeResponse): void;
  /** Replaces the default behaviour of `path`. */
  setDefault(path: string, handler: FakeHandler): void;
  stop(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** The chat completion's message: a fixed string or one built from the request. */
  chatReply?: string | ((body: any) => string);
  /** Vector length when a request does not ask for `dimensions`. */
  dimensions?: number;
}

const error = (status: number, message: string): FakeResponse => ({
  status,
  json: { error: { message, type: "invalid_request_error", code: null } },
});

/** A 16-bit PCM mono WAV of a sine tone. */
export function sineWav(seconds: number, frequencyHz = 440, sampleRate = 24_000): Uint8Array {
  const samples = Math.max(1, Math.round(seconds * sampleRate));
  const buf = new ArrayBuffer(44 + samples * 2);
  const v = new DataView(buf);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, "RIFF");
  v.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, "data");
  v.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    v.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / sampleRate) * 8000), true);
  }
  return new Uint8Array(buf);
}

function defaultHandlers(opts: FakeOpenAIOptions): Map<string, FakeHandler> {
  const embedders = new Map<number, ReturnType<typeof createBuiltinEmbedder>>();
  const embedder = (d: number) =>
    embedders.get(d) ?? embedders.set(d, createBuiltinEmbedder({ dimensions: d })).get(d)!;
  return new Map<string, FakeHandler>([
    [
      "/v1/embeddings",
      async ({ body }) => {
        const b = body as { model?: unknown; input?: unknown; dimensions?: unknown };
        const input = typeof b?.input === "string" ? [b.input] : b?.input;
        if (!Array.isArray(input) || !input.every((x) => typeof x === "string"))
          return error(400, "input must be a string or an array of strings");
        const dims = typeof b.dimensions === "number" ? b.dimensions : (opts.dimensions ?? 384);
        const vectors = await embedder(dims).embed(input);
        // Reversed on purpose: the protocol orders by `index`, and clients must honour it.
        const data = vectors.map((v, index) => ({ object: "embedding", index, embedding: Array.from(v) })).reverse();
        const tokens = input.reduce((n, s) => n + s.split(/\s+/).length, 0);
        return {
          json: { object: "list", data, model: b.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
        };
      },
    ],
    [
      "/v1/chat/completions",
      ({ body }) => {
        const b = body as { model?: unknown };
        const content =
          typeof opts.chatReply === "function"
            ? opts.chatReply(body)
            : (opts.chatReply ?? "A fake answer from the fake model [1].");
        return {
          json: {
            id: `chatcmpl-fake-${Date.now()}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: b?.model,
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
            usage: {
              prompt_tokens: 10,
              completion_tokens: content.split(/\s+/).length,
              total_tokens: 10 + content.split(/\s+/).length,
            },
          },
        };
      },
    ],
    [
      "/v1/audio/speech",
      ({ body }) => {
        const b = body as { input?: unknown; voice?: unknown };
        if (typeof b?.input !== "string" || b.input.trim() === "")
          return error(400, "input must be a non-empty string");
        // Longer text, longer audio; each voice its own pitch, so two speakers are told apart.
        const seconds = Math.min(30, 0.2 + 0.05 * b.input.trim().split(/\s+/).length);
        const pitch = 180 + (Bun.hash.crc32(String(b.voice ?? "")) % 8) * 40;
        return { body: sineWav(seconds, pitch), headers: { "content-type": "audio/wav" } };
      },
    ],
  ]);
}

function toResponse(r: FakeResponse): Response {
  const headers = new Headers(r.headers);
  let payload: BodyInit | null = null;
  if (r.json !== undefined) {
    payload = JSON.stringify(r.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  } else if (r.text !== undefined) {
    payload = r.text;
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8");
  } else if (r.body !== undefined) {
    payload = new Blob([r.body as Uint8Array<ArrayBuffer>]);
    if (!headers.has("content-type")) headers.set("content-type", "application/octet-stream");
  }
  return new Response(payload, { status: r.status ?? 200, headers });
}

export function startFakeOpenAI(opts: FakeOpenAIOptions = {}): FakeOpenAI {
  const requests: FakeRequest[] = [];
  const queues = new Map<string, FakeResponse[]>();
  const defaults = defaultHandlers(opts);
  const hanging = new Set<() => void>();

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const raw = await req.text();
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      const recorded: FakeRequest = { method: req.method, path, body, headers: Object.fromEntries(req.headers) };
      requests.push(recorded);
      const handler = defaults.get(path);
      const reply = queues.get(path)?.shift() ?? (handler ? await handler(recorded) : error(404, `no route ${path}`));
      if (reply.hang) {
        return new Promise<Response>((resolve) => {
          const release = () => {
            hanging.delete(release);
            resolve(new Response(null, { status: 499 }));
          };
          hanging.add(release);
          req.signal.addEventListener("abort", release, { once: true });
        });
      }
      if (reply.delayMs) await Bun.sleep(reply.delayMs);
      return toResponse(reply);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    queue(path, response) {
      const q = queues.get(path) ?? [];
      q.push(response);
      queues.set(path, q);
    },
    setDefault(path, handler) {
      defaults.set(path, handler);
    },
    async stop() {
      for (const release of [...hanging]) release();
      await server.stop(true);
    },
  };
}
