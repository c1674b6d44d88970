// Joins speech clips into one track: common sample rate, pauses between lines, light peak normalisation.
import type { AudioClip } from "../../../ai/speech/port.ts";
import { resample } from "./resample.ts";

export interface ConcatOptions {
  sampleRate?: number;
  /** Silence between consecutive clips; a clip's own pauseAfterMs wins. */
  pauseMs?: number;
}

export type TimedClip = AudioClip & { pauseAfterMs?: number };

export function durationSeconds(samples: { length: number }, sampleRate: number): number {
  return sampleRate > 0 ? samples.length / sampleRate : 0;
}

export function concatWithPauses(clips: TimedClip[], opts: ConcatOptions = {}): AudioClip {
  const sampleRate = opts.sampleRate ?? 24000;
  const pauseMs = opts.pauseMs ?? 350;
  const parts = clips.map((c) => resample(c.samples, c.sampleRate, sampleRate));
  const gaps = clips.map((c, i) =>
    i === clips.length - 1 ? 0 : Math.round(((c.pauseAfterMs ?? pauseMs) * sampleRate) / 1000),
  );
  const total = parts.reduce((n, p, i) => n + p.length + gaps[i]!, 0);
  const samples = new Float32Array(total); // zero-filled, so the gaps are silence already
  let at = 0;
  parts.forEach((part, i) => {
    samples.set(part, at);
    at += part.length + gaps[i]!;
  });
  return { samples, sampleRate };
}

export interface NormaliseOptions {
  /** Peak level to reach, in -1..1 (0.89 ≈ -1 dBFS). */
  targetPeak?: number;
  /** Never amplify more than this, so near-silence does not become loud noise. */
  maxGain?: number;
}

/** Scales so the loudest sample reaches targetPeak (quieter or louder), returning a new array. */
export function normalisePeak(samples: Float32Array, opts: NormaliseOptions = {}): Float32Array {
  const targetPeak = opts.targetPeak ?? 0.89;
  const maxGain = opts.maxGain ?? 4;
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = Math.abs(samples[i]!);
    if (v > peak) peak = v;
  }
  const out = new Float32Array(samples.length);
  if (peak === 0) return out;
  const gain = Math.min(maxGain, targetPeak / peak);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! * gain;
  return out;
}
