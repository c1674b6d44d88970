// MP3 encoding checked by our own frame parser: duration, bitrate, tags, and garbage rejected.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../errors.ts";
import { encodeMp3 } from "./mp3-encode.ts";
import { parseMp3Frames, readFrameHeader } from "./mp3-parse.ts";

/** A voice-like test signal: a 150 Hz buzz with harmonics, swelling like syllables. */
function speechLike(seconds: number, rate: number): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => {
    const t = i / rate;
    const buzz =
      Math.sin(2 * Math.PI * 150 * t) + 0.5 * Math.sin(2 * Math.PI * 300 * t) + 0.25 * Math.sin(2 * Math.PI * 450 * t);
    return 0.4 * buzz * (0.5 + 0.5 * Math.sin(2 * Math.PI * 3 * t));
  });
}

function id3v2(payload: number): Uint8Array {
  const tag = new Uint8Array(10 + payload);
  tag.set([
    0x49,
    0x44,
    0x33,
    4,
    0,
    0,
    (payload >> 21) & 0x7f,
    (payload >> 14) & 0x7f,
    (payload >> 7) & 0x7f,
    payload & 0x7f,
  ]);
  return tag;
}

describe("mp3 encode and parse", () => {
  test.each([
    [24000, 56],
    [22050, 48],
    [16000, 64],
  ])("%i Hz at %i kbps: frames parse and the duration matches the input within 5 percent", (rate, kbps) => {
    const seconds = 6;
    const mp3 = encodeMp3(speechLike(seconds, rate), rate, { kbps });
    const info = parseMp3Frames(mp3);
    expect(info.sampleRate).toBe(rate);
    expect(info.bitrateKbps).toBe(kbps);
    expect(Math.abs(info.durationSeconds - seconds) / seconds).toBeLessThan(0.05);
    expect(info.frames).toBe(Math.round(info.durationSeconds * rate) / 576); // MPEG-2 Layer III: 576 samples a frame
    expect(Math.abs(mp3.length - (kbps * 1000 * seconds) / 8) / mp3.length).toBeLessThan(0.05);
  });

  test("skips an ID3v2 tag and an ID3v1 tag around the frames", () => {
    const mp3 = encodeMp3(speechLike(2, 24000), 24000);
    const plain = parseMp3Frames(mp3);
    const v1 = new Uint8Array(128);
    v1.set([0x54, 0x41, 0x47]); // "TAG"
    const tagged = new Uint8Array([...id3v2(300), ...mp3, ...v1]);
    expect(parseMp3Frames(tagged)).toEqual(plain);
  });

  test("reads MPEG-1 headers too", () => {
    // MPEG-1 Layer III, 128 kbps, 44.1 kHz, no padding: 417 bytes, 1152 samples.
    expect(readFrameHeader(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), 0)).toEqual({
      length: 417,
      samples: 1152,
      sampleRate: 44100,
      kbps: 128,
    });
    // Same with the padding bit set.
    expect(readFrameHeader(new Uint8Array([0xff, 0xfb, 0x92, 0x00]), 0)?.length).toBe(418);
  });

  test("rejects garbage, truncation and trailing junk", () => {
    const mp3 = encodeMp3(speechLike(1, 24000), 24000);
    const reject = (bytes: Uint8Array, why: RegExp) => {
      const err = (() => {
        try {
          parseMp3Frames(bytes);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).detail).toMatch(why);
    };
    reject(new TextEncoder().encode("<html>definitely not audio</html>"), /no frame header at byte 0/);
    reject(new Uint8Array(0), /no audio frames/);
    reject(crypto.getRandomValues(new Uint8Array(4096)), /not an MP3/);
    reject(mp3.subarray(0, mp3.length - 10), /cut short/);
    reject(new Uint8Array([...mp3, 1, 2, 3, 4, 5]), /no frame header/);
    reject(new Uint8Array([0xff, 0xfb, 0xf0, 0x00, ...new Uint8Array(500)]), /no frame header/); // bitrate index 15
  });

  test("refuses sample rates and bitrates MP3 cannot carry", () => {
    expect(() => encodeMp3(new Float32Array(10), 16001)).toThrow(/cannot carry 16001 Hz/);
    expect(() => encodeMp3(new Float32Array(10), 24000, { kbps: 192 })).toThrow(/192 kbps is not valid at 24000 Hz/);
  });
});
