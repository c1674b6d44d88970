// The builtin Flite engine end to end: audible output, two distinguishable voices, chunking, a free event loop.
import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../errors.ts";
import { createBuiltinSpeech } from "./builtin.ts";

const speech = createBuiltinSpeech();
afterAll(() => speech.close?.());

function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** Median fundamental frequency over loud frames, by normalised autocorrelation (60–400 Hz). */
function medianPitch(samples: Float32Array, rate: number): number {
  const frame = Math.round(rate * 0.04);
  const hop = Math.round(rate * 0.02);
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 60);
  const peak = samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
  const pitches: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += hop) {
    const x = samples.subarray(start, start + frame);
    const energy = x.reduce((n, s) => n + s * s, 0);
    if (Math.sqrt(energy / frame) < peak * 0.1) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let cross = 0;
      let shifted = 0;
      for (let i = 0; i < frame; i++) {
        const y = samples[start + i + lag]!;
        cross += x[i]! * y;
        shifted += y * y;
      }
      const r = cross / Math.sqrt(energy * shifted + 1e-12);
      if (r > best) [best, bestLag] = [r, lag];
    }
    if (best > 0.6) pitches.push(rate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

describe("builtin speech (Flite in a worker)", () => {
  const line = "The quick brown fox jumps over the lazy dog, and then it takes a well deserved nap.";

  test("both host voices speak audibly, and host_a (kal16, raised) is clearly higher-pitched than host_b (rms)", async () => {
    expect(speech.voices.slice(0, 2)).toEqual(["kal16", "rms"]);
    const a = await speech.synthesize(line, "host_a");
    const b = await speech.synthesize(line, "host_b");
    for (const clip of [a, b]) {
      expect(clip.sampleRate).toBe(16000);
      expect(clip.samples.length / clip.sampleRate).toBeGreaterThan(2);
      expect(rms(clip.samples)).toBeGreaterThan(0.02);
      expect(clip.samples.every((s) => s >= -1 && s <= 1)).toBe(true);
    }
    const [pitchA, pitchB] = [medianPitch(a.samples, 16000), medianPitch(b.samples, 16000)];
    expect(pitchA).toBeGreaterThan(130);
    expect(pitchB).toBeLessThan(140);
    expect(pitchA).toBeGreaterThan(pitchB * 1.4);
  }, 60_000);

  test("the other Flite voices stay reachable by name, and kal16's pitch is raised", async () => {
    expect(speech.voices).toEqual(["kal16", "rms", "slt", "awb"]);
    const slt = await speech.synthesize(line, "slt");
    expect(medianPitch(slt.samples, 16000)).toBeGreaterThan(150);
    // Flite's own kal16 sits near 88 Hz; the host voice must not.
    expect(medianPitch((await speech.synthesize(line, "kal16")).samples, 16000)).toBeGreaterThan(140);
  }, 60_000);

  test("raw voice names work and give the same audio as their aliases", async () => {
    const alias = await speech.synthesize("Hello there.", "host_b");
    const raw = await speech.synthesize("Hello there.", "rms");
    expect(raw.samples).toEqual(alias.samples);
  });

  test("text longer than one chunk (300 characters) comes back as one clip", async () => {
    const one = await speech.synthesize(line, "host_a");
    const four = await speech.synthesize(Array(4).fill(line).join(" "), "host_a");
    expect(four.samples.length).toBeGreaterThan(one.samples.length * 3.5);
    expect(four.samples.length).toBeLessThan(one.samples.length * 4.5);
  }, 60_000);

  test("the event loop keeps ticking while a long line is synthesised", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // One chunk, so synthesis on this thread would be a single blocking call and no tick could run.
      const clip = await speech.synthesize(`${line} ${line} ${line}`, "host_a");
      expect(clip.samples.length).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(2);
  }, 60_000);

  test("unknown voices and cancelled calls are refused", async () => {
    const err = await speech.synthesize("Hi.", "darth").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("validation_failed");
    const controller = new AbortController();
    controller.abort(new Error("job cancelled"));
    await expect(speech.synthesize(line, "host_a", { signal: controller.signal })).rejects.toThrow("job cancelled");
  });

  test("empty text gives an empty clip", async () => {
    const clip = await speech.synthesize("  \u4e2d\u6587 ", "host_a");
    expect(clip.samples.length).toBe(0);
  });
});
