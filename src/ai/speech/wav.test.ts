// The WAV reader and writer: round trip, stereo downmix, streamed sizes, float samples, bad input.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../errors.ts";
import { decodePcm16, decodeWav, encodeWav, isWav } from "./wav.ts";

function tone(n: number, rate: number, hz = 440, amp = 0.5): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / rate));
}

/** A hand-built WAV with any header values, for the cases our own encoder never writes. */
function rawWav(opts: {
  channels: number;
  rate: number;
  bits: number;
  format?: number;
  data: Uint8Array;
  dataSize?: number;
  extraChunk?: boolean;
}): Uint8Array {
  const extra = opts.extraChunk ? 8 + 3 + 1 : 0; // odd-sized chunk plus its pad byte
  const bytes = new Uint8Array(44 + extra + opts.data.length);
  const v = new DataView(bytes.buffer);
  const put = (at: number, s: string) => bytes.set(new TextEncoder().encode(s), at);
  put(0, "RIFF");
  v.setUint32(4, bytes.length - 8, true);
  put(8, "WAVE");
  put(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, opts.format ?? 1, true);
  v.setUint16(22, opts.channels, true);
  v.setUint32(24, opts.rate, true);
  v.setUint32(28, (opts.rate * opts.channels * opts.bits) / 8, true);
  v.setUint16(32, (opts.channels * opts.bits) / 8, true);
  v.setUint16(34, opts.bits, true);
  let at = 36;
  if (opts.extraChunk) {
    put(at, "LIST");
    v.setUint32(at + 4, 3, true);
    at += 12;
  }
  put(at, "data");
  v.setUint32(at + 4, opts.dataSize ?? opts.data.length, true);
  bytes.set(opts.data, at + 8);
  return bytes;
}

describe("wav", () => {
  test("round-trips 16-bit mono within quantisation error", () => {
    const samples = tone(1000, 22050);
    const clip = decodeWav(encodeWav({ samples, sampleRate: 22050 }));
    expect(clip.sampleRate).toBe(22050);
    expect(clip.samples.length).toBe(1000);
    const maxErr = Math.max(...clip.samples.map((s, i) => Math.abs(s - samples[i]!)));
    expect(maxErr).toBeLessThan(1 / 16384);
  });

  test("averages stereo into mono and skips unknown chunks", () => {
    const data = new Uint8Array(8);
    const v = new DataView(data.buffer);
    v.setInt16(0, 16384, true); // frame 1: L=0.5, R=-0.5 → 0
    v.setInt16(2, -16384, true);
    v.setInt16(4, 16384, true); // frame 2: L=0.5, R=0.5 → 0.5
    v.setInt16(6, 16384, true);
    const clip = decodeWav(rawWav({ channels: 2, rate: 48000, bits: 16, data, extraChunk: true }));
    expect(clip.sampleRate).toBe(48000);
    expect([...clip.samples]).toEqual([0, 0.5]);
  });

  test("reads a streamed WAV whose data size is a placeholder", () => {
    const data = new Uint8Array(200).fill(0x10);
    const clip = decodeWav(rawWav({ channels: 1, rate: 24000, bits: 16, data, dataSize: 0xffffffff }));
    expect(clip.samples.length).toBe(100);
  });

  test("reads 32-bit float samples", () => {
    const data = new Uint8Array(new Float32Array([0.25, -0.75]).buffer);
    const clip = decodeWav(rawWav({ channels: 1, rate: 16000, bits: 32, format: 3, data }));
    expect([...clip.samples]).toEqual([0.25, -0.75]);
  });

  test("rejects non-WAV bytes and unsupported encodings with a clear error", () => {
    expect(isWav(new TextEncoder().encode('{"error":"nope"}'))).toBe(false);
    expect(() => decodeWav(new TextEncoder().encode("not audio at all"))).toThrow(/missing RIFF\/WAVE header/);
    expect(() => decodeWav(rawWav({ channels: 1, rate: 8000, bits: 8, format: 2, data: new Uint8Array(4) }))).toThrow(
      /unsupported sample format 2/,
    );
    expect(() =>
      decodeWav(rawWav({ channels: 1, rate: 8000, bits: 16, data: new Uint8Array(4) }).subarray(0, 36)),
    ).toThrow(AppError);
  });

  test("decodes raw 16-bit PCM", () => {
    const bytes = new Uint8Array(new Int16Array([0, 16384, -32768]).buffer);
    const clip = decodePcm16(bytes, 24000);
    expect([...clip.samples]).toEqual([0, 0.5, -1]);
    expect(clip.sampleRate).toBe(24000);
  });
});
