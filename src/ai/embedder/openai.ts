// The OpenAI-compatible embedder: POST /v1/embeddings in batches, replies validated and normalised.
import { AIError, type OpenAIClient } from "../openai-client.ts";
import { l2normalize, type Embedder } from "./port.ts";

export interface OpenAIEmbedderOptions {
  client: OpenAIClient;
  model: string;
  /** Expected vector length. Without it, the first reply decides and later replies must match. */
  dimensions?: number;
  /** Also send `dimensions` in the request (for models that can shorten their vectors). */
  requestDimensions?: boolean;
  batchSize?: number;
  /** Prefixes for asymmetric models, e.g. "search_query: " / "search_document: " for nomic-embed. */
  queryPrefix?: string;
  documentPrefix?: string;
}

const PATH = "/v1/embeddings";

function bad(message: string): AIError {
  return new AIError("ai_bad_response", `POST ${PATH}: ${message}`);
}

/** Some servers answer base64 even when asked for floats: little-endian float32s. */
function decodeBase64(s: string): Float32Array {
  const bytes = Uint8Array.from(Buffer.from(s, "base64"));
  if (bytes.length % 4 !== 0) throw bad("a base64 embedding is not a whole number of float32 values");
  return new Float32Array(bytes.buffer, 0, bytes.length / 4).slice();
}

function toVector(raw: unknown, at: number): Float32Array {
  const isNumbers = Array.isArray(raw) && raw.every((x) => typeof x === "number");
  if (typeof raw !== "string" && !isNumbers) throw bad(`data[${at}].embedding is not a list of numbers`);
  const v = typeof raw === "string" ? decodeBase64(raw) : Float32Array.from(raw as number[]);
  if (v.length === 0) throw bad(`data[${at}].embedding is empty`);
  if (!v.every(Number.isFinite)) throw bad(`data[${at}].embedding holds a value that is not a finite number`);
  return v;
}

/** Checks the reply carries exactly one vector per input and puts them in input order by `index`. */
function parseReply(reply: unknown, expected: number): Float32Array[] {
  const data = (reply as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw bad("the reply has no `data` list");
  if (data.length !== expected) throw bad(`asked for ${expected} embeddings, got ${data.length}`);
  const out = new Array<Float32Array | undefined>(expected);
  data.forEach((item: unknown, at) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const i = index === undefined ? at : index;
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= expected)
      throw bad(`data[${at}].index is missing or out of range`);
    if (out[i]) throw bad(`index ${i} appears twice`);
    out[i] = toVector(embedding, at);
  });
  return out as Float32Array[];
}

export function createOpenAIEmbedder(opts: OpenAIEmbedderOptions): Embedder {
  const batchSize = Math.max(1, opts.batchSize ?? 64);
  let dimensions = opts.dimensions ?? 0;

  async function embedBatch(input: string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: opts.model, input, encoding_format: "float" };
    if (opts.requestDimensions && opts.dimensions) body.dimensions = opts.dimensions;
    const vectors = parseReply(await opts.client.postJSON(PATH, body), input.length);
    for (const v of vectors) {
      if (dimensions === 0) dimensions = v.length;
      if (v.length !== dimensions)
        throw bad(`expected vectors of ${dimensions} dimensions from ${opts.model}, got ${v.length}`);
      l2normalize(v);
    }
    return vectors;
  }

  return {
    id: opts.model,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, kind = "document") {
      const prefix = (kind === "query" ? opts.queryPrefix : opts.documentPrefix) ?? "";
      const out: Float32Array[] = [];
      // Batches go one after another: a model server is usually the bottleneck, and order is simple.
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await embedBatch(texts.slice(i, i + batchSize).map((t) => prefix + t))));
      }
      return out;
    },
  };
}
