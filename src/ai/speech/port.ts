// The speech port: text and a voice in, mono PCM out; a builtin (offline) and an OpenAI-compatible adapter.
import { invalid } from "../../errors.ts";

export interface AudioClip {
  /** Mono samples in -1..1. */
  samples: Float32Array;
  sampleRate: number;
}

export interface SynthesizeOptions {
  /** BCP 47 hint; adapters that speak one language ignore it. */
  language?: string;
  signal?: AbortSignal;
}

export interface SpeechEngine {
  id: string;
  /** At least two; voices[0] and voices[1] are also reachable as "host_a" and "host_b". */
  voices: string[];
  synthesize(text: string, voice: string, opts?: SynthesizeOptions): Promise<AudioClip>;
  /** Releases background resources (worker threads); the engine restarts them if used again. */
  close?(): Promise<void>;
}

/** Logical podcast voices, so scripts need not know which engine is configured. */
export const HOST_VOICES = ["host_a", "host_b"] as const;

/** Maps "host_a"/"host_b" to the engine's first/second voice; other names pass through unchanged. */
export function resolveHostVoice(voice: string, voices: readonly string[]): string {
  const index = (HOST_VOICES as readonly string[]).indexOf(voice);
  if (index < 0) return voice;
  const mapped = voices[index];
  if (mapped === undefined) throw invalid("voice", `this speech engine has no voice for "${voice}"`);
  return mapped;
}

/** Throws the caller's abort reason, so a cancelled job stops between chunks. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException("Aborted", "AbortError");
}
