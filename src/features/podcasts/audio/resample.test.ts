// Sample-rate conversion: lengths, tone fidelity, anti-aliasing.
import { describe, expect, test } from "bun:test";
import { resample } from "./resample.ts";

const sine = (n: number, rate: number, hz: number) =>
  Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

/** Largest error against the ideal signal, away from the edges where the filter sees zero padding. */
function maxInteriorError(actual: Float32Array, ideal: Float32Array): number {
  let max = 0;
  for (let i = 64; i < actual.length - 64; i++) max = Math.max(max, Math.abs(actual[i]! - ideal[i]!));
  return max;
}

describe("resample", () => {
  test("output length follows the rate ratio", () => {
    expect(resample(new Float32Array(16000), 16000, 24000).length).toBe(24000);
    expect(resample(new Float32Array(22050), 22050, 24000).length).toBe(24000);
    expect(resample(new Float32Array(4410), 44100, 24000).length).toBe(2400);
    expect(resample(new Float32Array(0), 16000, 24000).length).toBe(0);
  });

  test("equal rates return the input untouched", () => {
    const x = sine(100, 24000, 440);
    expect(resample(x, 24000, 24000)).toBe(x);
  });

  test("a tone keeps its shape when upsampled and downsampled", () => {
    expect(maxInteriorError(resample(sine(1600, 16000, 440), 16000, 24000), sine(2400, 24000, 440))).toBeLessThan(0.01);
    expect(maxInteriorError(resample(sine(2205, 22050, 1000), 22050, 24000), sine(2400, 24000, 1000))).toBeLessThan(
      0.01,
    );
    expect(maxInteriorError(resample(sine(4800, 48000, 300), 48000, 24000), sine(2400, 24000, 300))).toBeLessThan(0.01);
  });

  test("downsampling removes tones above the new Nyquist frequency instead of aliasing them", () => {
    const out = resample(sine(4800, 48000, 15000), 48000, 24000); // 15 kHz would fold to 9 kHz
    const rmsInterior = Math.sqrt(out.subarray(64, -64).reduce((n, s) => n + s * s, 0) / (out.length - 128));
    expect(rmsInterior).toBeLessThan(0.01);
  });

  test("rejects nonsense rates", () => {
    expect(() => resample(new Float32Array(4), 0, 24000)).toThrow(RangeError);
    expect(() => resample(new Float32Array(4), 16000.5, 24000)).toThrow(RangeError);
  });
});
