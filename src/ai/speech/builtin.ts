// The builtin speech engine: Flite (BSD-style licence, compiled to WASI) in a worker thread, fully offline.
import { invalid } from "../../errors.ts";
import { chunkText } from "./chunk.ts";
import type { FliteJob } from "./builtin-worker.ts";
import { textForFlite } from "./flite-wasi.ts";
import { resolveHostVoice, throwIfAborted, type AudioClip, type SpeechEngine } from "./port.ts";
import { createWorkerClient, workerUrl } from "./worker-client.ts";

/** slt is a US English female voice, rms a US English male one; both 16 kHz. */
const FLITE_VOICES = ["slt", "rms"];
const FLITE_RATE = 16000;

export interface BuiltinSpeechOptions {
  /** Where the worker entry lives; the default finds it both in development and in a compiled binary. */
  workerUrl?: URL | string;
  /** Characters per Flite call: small chunks keep memory flat and let other jobs interleave. */
  maxChunkChars?: number;
}

export function defaultBuiltinWorkerUrl(): URL {
  return workerUrl("./builtin-worker.ts", import.meta.url, "ai/speech/builtin-worker.ts");
}

function concat(clips: AudioClip[]): Float32Array {
  const out = new Float32Array(clips.reduce((n, c) => n + c.samples.length, 0));
  let at = 0;
  for (const clip of clips) {
    out.set(clip.samples, at);
    at += clip.samples.length;
  }
  return out;
}

export function createBuiltinSpeech(opts: BuiltinSpeechOptions = {}): SpeechEngine {
  const client = createWorkerClient<FliteJob, AudioClip>(opts.workerUrl ?? defaultBuiltinWorkerUrl(), "speech");
  const maxChunkChars = opts.maxChunkChars ?? 300;

  const synthesize: SpeechEngine["synthesize"] = async (text, voice, synthOpts = {}) => {
    const fliteVoice = resolveHostVoice(voice, FLITE_VOICES);
    if (!FLITE_VOICES.includes(fliteVoice)) {
      throw invalid("voice", `unknown voice "${voice}"; use host_a, host_b, ${FLITE_VOICES.join(", ")}`);
    }
    const clips: AudioClip[] = [];
    for (const chunk of chunkText(textForFlite(text), maxChunkChars)) {
      throwIfAborted(synthOpts.signal);
      clips.push(await client.call({ text: chunk, voice: fliteVoice }, { signal: synthOpts.signal }));
    }
    if (clips.some((c) => c.sampleRate !== FLITE_RATE)) throw new Error("flite returned an unexpected sample rate");
    return { samples: concat(clips), sampleRate: FLITE_RATE };
  };

  return { id: "builtin", voices: [...FLITE_VOICES], synthesize, close: client.close };
}
