// The builtin speech engine: Flite (BSD-style licence, compiled to WASI) in a worker thread, fully offline.
import { invalid } from "../../errors.ts";
import { chunkText } from "./chunk.ts";
import type { FliteJob } from "./builtin-worker.ts";
import { textForFlite } from "./flite-wasi.ts";
import { resolveHostVoice, throwIfAborted, type AudioClip, type SpeechEngine } from "./port.ts";
import { createWorkerClient, workerUrl } from "./worker-client.ts";

/**
 * The Flite voices, host_a and host_b first. kal16 and rms are the two most intelligible (word error
 * rate by an offline recogniser: see docs/podcasts.md) but both are low male voices (≈ 88 and 101 Hz),
 * so kal16 speaks with its mean pitch raised to 160 Hz: the hosts then differ by half an octave and in
 * timbre (diphone against statistical voice), still more intelligible than slt. All 16 kHz.
 */
const FLITE_VOICES: Record<string, { flite: string; settings?: Record<string, number> }> = {
  kal16: { flite: "kal16", settings: { int_f0_target_mean: 160 } },
  rms: { flite: "rms" },
  slt: { flite: "slt" },
  awb: { flite: "awb" },
};
const VOICE_NAMES = Object.keys(FLITE_VOICES);
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
    const name = resolveHostVoice(voice, VOICE_NAMES);
    const fliteVoice = Object.hasOwn(FLITE_VOICES, name) ? FLITE_VOICES[name] : undefined;
    if (!fliteVoice) throw invalid("voice", `unknown voice "${voice}"; use host_a, host_b, ${VOICE_NAMES.join(", ")}`);
    const clips: AudioClip[] = [];
    for (const chunk of chunkText(textForFlite(text), maxChunkChars)) {
      throwIfAborted(synthOpts.signal);
      clips.push(
        await client.call(
          { text: chunk, voice: fliteVoice.flite, settings: fliteVoice.settings },
          { signal: synthOpts.signal },
        ),
      );
    }
    if (clips.some((c) => c.sampleRate !== FLITE_RATE)) throw new Error("flite returned an unexpected sample rate");
    return { samples: concat(clips), sampleRate: FLITE_RATE };
  };

  return { id: "builtin", voices: [...VOICE_NAMES], synthesize, close: client.close };
}
