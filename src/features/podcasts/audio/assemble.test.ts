// Joining clips with pauses and peak normalisation.
import { describe, expect, test } from "bun:test";
import { concatWithPauses, durationSeconds, normalisePeak } from "./assemble.ts";

const level = (n: number, v: number) => new Float32Array(n).fill(v);

describe("assembling clips", () => {
  test("joins clips at the target rate with a pause between each (not after the last)", () => {
    const track = concatWithPauses(
      [
        { samples: level(1600, 0.5), sampleRate: 16000 },
        { samples: level(2400, -0.5), sampleRate: 24000 },
      ],
      { pauseMs: 500 },
    );
    expect(track.sampleRate).toBe(24000);
    expect(track.samples.length).toBe(2400 + 12000 + 2400);
    expect(track.samples[1200]).toBeCloseTo(0.5, 2);
    expect(track.samples.subarray(2400 + 100, 2400 + 11900).every((s) => s === 0)).toBe(true);
    expect(track.samples[2400 + 12000 + 1200]).toBe(-0.5);
    expect(durationSeconds(track.samples, track.sampleRate)).toBeCloseTo(16800 / 24000, 6);
  });

  test("uses the default 350 ms pause, a clip's own pause, and handles no clips", () => {
    const clip = { samples: level(100, 0.1), sampleRate: 22050 };
    expect(concatWithPauses([clip, clip], { sampleRate: 22050 }).samples.length).toBe(200 + 7718); // 350 ms at 22.05 kHz, rounded
    expect(concatWithPauses([{ ...clip, pauseAfterMs: 0 }, clip], { sampleRate: 22050 }).samples.length).toBe(200);
    expect(concatWithPauses([]).samples.length).toBe(0);
  });

  test("normalisation lifts a quiet track to the target peak, with bounded gain", () => {
    const quiet = Float32Array.from([0.25, -0.5, 0.125]);
    const lifted = normalisePeak(quiet);
    [0.445, -0.89, 0.2225].forEach((v, i) => expect(lifted[i]).toBeCloseTo(v, 5));
    const faint = Float32Array.from([0.001, -0.001]);
    expect(normalisePeak(faint)[0]).toBeCloseTo(0.004, 6); // maxGain 4, not ×890
    expect(normalisePeak(Float32Array.from([2, -1]))[0]).toBeCloseTo(0.89, 6); // loud input comes down
    expect([...normalisePeak(new Float32Array(3))]).toEqual([0, 0, 0]);
    expect(quiet[1]).toBe(-0.5); // input untouched
  });
});
