// Speaks a transcript and writes one MP3: per-turn clips, one sample rate, short pauses, encoded in
// segments so speech synthesis (one worker) and MP3 encoding (another) run side by side.
import { open } from "node:fs/promises";
import type { AudioClip, SpeechEngine } from "../../ai/speech/port.ts";
import { normalisePeak, type TimedClip } from "./audio/assemble.ts";
import type { AudioEncoder } from "./audio/encoder.ts";
import { id3v2Tag, type Id3Fields } from "./audio/id3.ts";
import { MP3_SAMPLE_RATES } from "./audio/mp3-encode.ts";
import type { Turn } from "./script/port.ts";

export interface RenderOptions {
  speech: SpeechEngine;
  encoder: AudioEncoder;
  /** Speaker name → logical voice (host_a/host_b) or an engine voice. */
  voices: Map<string, string>;
  language?: string;
  signal?: AbortSignal;
  /** Checked between turns: true stops the work (the episode was deleted). */
  cancelled?: () => boolean | Promise<boolean>;
  kbps?: number;
  /** Seconds of speech per encoded segment; by default about a sixth of the episode, 6–30 s. */
  segmentSeconds?: number;
  /** Written as an ID3v2.3 tag before the audio frames (players skip it; the parser does too). */
  tag?: Id3Fields;
  /** Told after each spoken turn, and once when only encoding remains. */
  onProgress?: (p: { phase: "speech" | "encoding"; done: number; total: number }) => void;
}

export interface RenderResult {
  durationSeconds: number;
  bytes: number;
  /** Seconds of audio per voice, to show which voices were used. */
  voiceSeconds: Record<string, number>;
}

export class RenderCancelled extends Error {
  override name = "RenderCancelled";
}

const SAME_SPEAKER_PAUSE_MS = 250;
const CHANGE_SPEAKER_PAUSE_MS = 450;
/** Encoded segments waiting for the encoder before synthesis waits too (bounds memory). */
const MAX_PENDING_SEGMENTS = 3;
export const DEFAULT_KBPS = 48;
/** Speech engines say roughly this many words a second; only used to size segments. */
const WORDS_PER_SECOND = 3;
const WARM_UP_SAMPLES = 16_000;

/**
 * Short segments let encoding start soon and end soon after the last line (a short episode is
 * mostly pipeline fill); long ones add fewer MP3 restarts to a long episode.
 */
function segmentLength(turns: Turn[]): number {
  const words = turns.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
  return Math.min(30, Math.max(6, words / WORDS_PER_SECOND / 6));
}

/** The engine's own rate when MP3 can carry it (no resampling at all), else 24 kHz. */
function outputRate(first: AudioClip): number {
  return MP3_SAMPLE_RATES.includes(first.sampleRate) && first.sampleRate <= 24_000 ? first.sampleRate : 24_000;
}

const silence = (ms: number, sampleRate: number): TimedClip => ({
  samples: new Float32Array(Math.round((ms * sampleRate) / 1000)),
  sampleRate,
  pauseAfterMs: 0,
});

/** Writes the episode to `path` (which the caller renames into place) and measures it from the samples. */
export async function renderEpisode(turns: Turn[], path: string, opts: RenderOptions): Promise<RenderResult> {
  const segmentSeconds = opts.segmentSeconds ?? segmentLength(turns);
  const kbps = opts.kbps ?? DEFAULT_KBPS;
  const file = await open(path, "w");
  // Starts the encoder thread (and its JIT) while the first line is being spoken; it costs a few ms when warm.
  opts.encoder.encodeMp3Async(new Float32Array(WARM_UP_SAMPLES), 16_000, { kbps }).catch(() => undefined);
  const voiceSeconds: Record<string, number> = {};
  let duration = 0;
  let bytes = 0;
  let rate = 0;
  let pending: TimedClip[] = [];
  let pendingSeconds = 0;
  let writes: Promise<void> = Promise.resolve();
  let tagBytes = 0;
  if (opts.tag) {
    const tag = id3v2Tag(opts.tag);
    writes = file.write(tag).then(() => void (tagBytes = tag.length));
  }
  /** Completion of each segment's write, in order; synthesis waits only for the oldest when too many are pending. */
  const written: Promise<void>[] = [];

  const flush = (last: boolean) => {
    if (pending.length === 0) return;
    const clips = pending;
    pending = [];
    pendingSeconds = 0;
    const tail = clips[clips.length - 1]!;
    // The pause after a segment's last line is encoded as silence, since the next segment starts a new MP3 run.
    if (!last && tail.pauseAfterMs) clips.push(silence(tail.pauseAfterMs, rate));
    tail.pauseAfterMs = last ? 0 : tail.pauseAfterMs;
    const encoded = opts.encoder.assembleMp3Async(clips, {
      sampleRate: rate,
      kbps,
      normalise: false,
      transfer: true,
      signal: opts.signal,
    });
    encoded.catch(() => undefined); // awaited in order below; this only stops an early rejection counting as unhandled
    writes = writes.then(async () => {
      const out = await encoded;
      await file.write(out.mp3);
      duration += out.durationSeconds;
      bytes += out.mp3.length;
    });
    writes.catch(() => undefined);
    written.push(writes);
  };

  try {
    for (let i = 0; i < turns.length; i++) {
      if (await opts.cancelled?.()) throw new RenderCancelled("the episode was deleted");
      const turn = turns[i]!;
      const voice = opts.voices.get(turn.speaker);
      if (!voice) throw new Error(`no voice for speaker "${turn.speaker}"`);
      const clip = await opts.speech.synthesize(turn.text, voice, { language: opts.language, signal: opts.signal });
      if (clip.samples.length === 0) continue;
      rate ||= outputRate(clip);
      const seconds = clip.samples.length / clip.sampleRate;
      voiceSeconds[voice] = (voiceSeconds[voice] ?? 0) + seconds;
      const next = turns[i + 1];
      const pauseAfterMs = next && next.speaker !== turn.speaker ? CHANGE_SPEAKER_PAUSE_MS : SAME_SPEAKER_PAUSE_MS;
      // Each turn is levelled on its own, so two voices (or two engines' chunks) sound equally loud.
      pending.push({ samples: normalisePeak(clip.samples), sampleRate: clip.sampleRate, pauseAfterMs });
      pendingSeconds += seconds;
      if (pendingSeconds >= segmentSeconds && next) flush(false);
      opts.onProgress?.({ phase: "speech", done: i + 1, total: turns.length });
      const oldest = written[written.length - MAX_PENDING_SEGMENTS];
      if (oldest) await oldest;
    }
    flush(true);
    opts.onProgress?.({ phase: "encoding", done: turns.length, total: turns.length });
    await writes;
    if (bytes === 0) throw new Error("the speech engine produced no audio");
    bytes += tagBytes;
    await file.sync();
  } catch (err) {
    await writes.catch(() => undefined);
    throw err;
  } finally {
    await file.close();
  }
  return { durationSeconds: duration, bytes, voiceSeconds };
}
