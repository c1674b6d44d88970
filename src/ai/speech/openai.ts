// The OpenAI-compatible speech adapter: POST /v1/audio/speech, WAV (or raw 16-bit PCM) back, decoded to mono.
import { AppError } from "../../errors.ts";
import { chunkText } from "./chunk.ts";
import { resolveHostVoice, throwIfAborted, type AudioClip, type SpeechEngine, type SynthesizeOptions } from "./port.ts";
import { decodePcm16, decodeWav, isWav } from "./wav.ts";

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface OpenAISpeechOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** The first two also answer to "host_a" and "host_b". */
  voices?: string[];
  fetch?: FetchLike;
  /** OpenAI accepts at most 4096 characters per request. */
  maxChunkChars?: number;
}

/** OpenAI's "pcm" format: 24 kHz signed 16-bit little-endian mono, unless the content type says otherwise. */
const DEFAULT_PCM_RATE = 24000;

function pcmRate(contentType: string): number | undefined {
  if (!/audio\/(pcm|l16)|application\/octet-stream/i.test(contentType)) return undefined;
  const rate = /rate=(\d+)/i.exec(contentType)?.[1];
  return rate ? Number(rate) : DEFAULT_PCM_RATE;
}

function decodeReply(bytes: Uint8Array, contentType: string): AudioClip {
  if (isWav(bytes)) {
    try {
      return decodeWav(bytes);
    } catch (err) {
      throw new AppError("upstream_error", `speech server sent an unreadable WAV: ${(err as Error).message}`);
    }
  }
  const rate = pcmRate(contentType);
  if (rate !== undefined && bytes.length % 2 === 0 && bytes.length > 0) return decodePcm16(bytes, rate);
  throw new AppError(
    "upstream_error",
    `speech server did not send WAV or PCM audio (content-type "${contentType || "none"}", ${bytes.length} bytes)`,
  );
}

function joinClips(clips: AudioClip[]): AudioClip {
  const first = clips[0];
  if (!first) return { samples: new Float32Array(0), sampleRate: DEFAULT_PCM_RATE };
  if (clips.some((c) => c.sampleRate !== first.sampleRate)) {
    throw new AppError("upstream_error", "speech server changed sample rate between chunks");
  }
  const out = new Float32Array(clips.reduce((n, c) => n + c.samples.length, 0));
  let at = 0;
  for (const c of clips) {
    out.set(c.samples, at);
    at += c.samples.length;
  }
  return { samples: out, sampleRate: first.sampleRate };
}

export function createOpenAISpeech(opts: OpenAISpeechOptions): SpeechEngine {
  const voices = opts.voices ?? ["alloy", "onyx"];
  if (voices.length < 2) throw new Error("createOpenAISpeech needs at least two voices");
  const doFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const endpoint = `${opts.baseUrl.replace(/\/+$/, "")}/v1/audio/speech`;

  async function request(input: string, voice: string, signal: AbortSignal | undefined): Promise<AudioClip> {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await doFetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: opts.model, input, voice, response_format: "wav" }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throwIfAborted(signal);
      if (timeout.aborted) throw new AppError("upstream_error", `speech server timed out after ${opts.timeoutMs} ms`);
      throw new AppError("upstream_error", `speech server unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const body = new TextDecoder().decode(bytes.subarray(0, 300)).trim();
      throw new AppError("upstream_error", `speech server answered HTTP ${res.status}${body ? `: ${body}` : ""}`);
    }
    return decodeReply(bytes, res.headers.get("content-type") ?? "");
  }

  async function synthesize(text: string, voice: string, synthOpts: SynthesizeOptions = {}): Promise<AudioClip> {
    const resolved = resolveHostVoice(voice, voices);
    const clips: AudioClip[] = [];
    for (const chunk of chunkText(text, opts.maxChunkChars ?? 4000)) {
      throwIfAborted(synthOpts.signal);
      clips.push(await request(chunk, resolved, synthOpts.signal));
    }
    return joinClips(clips);
  }

  return { id: "openai", voices: [...voices], synthesize };
}
