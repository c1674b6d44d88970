// MP3 encoding and episode assembly in the worker thread.
import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../../errors.ts";
import { createAudioEncoder } from "./encoder.ts";
import { parseMp3Frames } from "./mp3-parse.ts";

const encoder = createAudioEncoder();
afterAll(() => encoder.close());

const tone = (seconds: number, rate: number) =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / rate));

describe("audio encoder worker", () => {
  test("encodeMp3Async returns a parseable MP3 of the right length while the event loop keeps ticking", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    let mp3: Uint8Array;
    try {
      mp3 = await encoder.encodeMp3Async(tone(6, 24000), 24000, { kbps: 64 });
    } finally {
      clearInterval(timer);
    }
    const info = parseMp3Frames(mp3);
    expect(info.bitrateKbps).toBe(64);
    expect(Math.abs(info.durationSeconds - 6) / 6).toBeLessThan(0.05);
    expect(ticks).toBeGreaterThan(2);
  }, 60_000);

  test("assembleMp3Async resamples, joins with pauses and reports the duration", async () => {
    const clips = [
      { samples: tone(2, 16000), sampleRate: 16000 },
      { samples: tone(3, 24000), sampleRate: 24000, pauseAfterMs: 1000 },
      { samples: tone(1, 22050), sampleRate: 22050 },
    ];
    const { mp3, durationSeconds } = await encoder.assembleMp3Async(clips, { sampleRate: 24000, pauseMs: 500 });
    expect(durationSeconds).toBeCloseTo(2 + 0.5 + 3 + 1 + 1, 3);
    const info = parseMp3Frames(mp3);
    expect(info.sampleRate).toBe(24000);
    expect(Math.abs(info.durationSeconds - durationSeconds) / durationSeconds).toBeLessThan(0.05);
    expect(clips[0]!.samples.length).toBe(32000); // copied, not moved, by default
  }, 60_000);

  test("with transfer the clips' buffers move to the worker", async () => {
    const clip = { samples: tone(1, 24000), sampleRate: 24000 };
    await encoder.assembleMp3Async([clip], { transfer: true });
    expect(clip.samples.length).toBe(0);
  });

  test("errors inside the worker come back as the same AppError", async () => {
    const err = await encoder.encodeMp3Async(tone(1, 16000), 16001).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("validation_failed");
    expect((err as AppError).message).toMatch(/cannot carry 16001 Hz/);
  });
});
