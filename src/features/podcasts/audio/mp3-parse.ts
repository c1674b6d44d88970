// Reads MPEG audio frame headers (after an optional ID3v2 tag) to count frames and measure duration.
import { AppError } from "../../../errors.ts";

export interface Mp3Info {
  frames: number;
  durationSeconds: number;
  sampleRate: number;
  /** Average over the audio frames (equals the nominal rate for constant-bitrate files). */
  bitrateKbps: number;
}

interface FrameHeader {
  length: number;
  samples: number;
  sampleRate: number;
  kbps: number;
}

type Version = "1" | "2" | "2.5";

// Bitrate tables in kbps, indexed by the 4-bit field; 0 ("free format") and 15 are not accepted.
const BITRATES: Record<string, number[]> = {
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<Version, number[]> = {
  "1": [44100, 48000, 32000],
  "2": [22050, 24000, 16000],
  "2.5": [11025, 12000, 8000],
};

function notMp3(detail: string): AppError {
  return new AppError("unsupported_media_type", `not an MP3: ${detail}`);
}

/** Parses the 4-byte header at `at`, or returns undefined if it is not a valid frame header. */
export function readFrameHeader(bytes: Uint8Array, at: number): FrameHeader | undefined {
  if (at + 4 > bytes.length) return undefined;
  const b1 = bytes[at + 1]!;
  const b2 = bytes[at + 2]!;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined; // 11-bit sync word
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return undefined;
  const version: Version = versionBits === 3 ? "1" : versionBits === 2 ? "2" : "2.5";
  const layer = 4 - layerBits;
  const padding = (b2 >> 1) & 1;
  const table = version === "1" ? `1-${layer}` : layer === 1 ? "2-1" : "2-2";
  const kbps = BITRATES[table]![bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const samples = layer === 1 ? 384 : layer === 2 || version === "1" ? 1152 : 576;
  const length =
    layer === 1
      ? (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4
      : Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { length, samples, sampleRate, kbps };
}

/** Size of a leading ID3v2 tag (header, syncsafe size, optional footer), or 0. */
function id3v2Size(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0; // "ID3"
  const sizeBytes = bytes.subarray(6, 10);
  if (sizeBytes.some((b) => b & 0x80)) throw notMp3("corrupt ID3v2 tag size");
  const size = (sizeBytes[0]! << 21) | (sizeBytes[1]! << 14) | (sizeBytes[2]! << 7) | sizeBytes[3]!;
  const footer = bytes[5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** A Xing/Info/VBRI frame describes the file and holds no audio. */
function isInfoFrame(bytes: Uint8Array, at: number, length: number): boolean {
  const text = new TextDecoder("latin1").decode(bytes.subarray(at + 4, at + Math.min(length, 64)));
  return /Xing|Info|VBRI/.test(text);
}

/** Strict: the data must be back-to-back frames, optionally wrapped in ID3v2 (front) and ID3v1 (end) tags. */
export function parseMp3Frames(bytes: Uint8Array): Mp3Info {
  const start = id3v2Size(bytes);
  let at = start;
  let end = bytes.length;
  if (end - at >= 128 && String.fromCharCode(...bytes.subarray(end - 128, end - 125)) === "TAG") end -= 128;
  let frames = 0;
  let samples = 0;
  let bits = 0;
  let sampleRate = 0;
  while (at < end) {
    const frame = readFrameHeader(bytes, at);
    if (!frame) throw notMp3(`no frame header at byte ${at}`);
    if (at + frame.length > end) throw notMp3(`frame at byte ${at} is cut short`);
    if (sampleRate && frame.sampleRate !== sampleRate) throw notMp3(`sample rate changes at byte ${at}`);
    sampleRate = frame.sampleRate;
    const first = at === start;
    if (!(first && isInfoFrame(bytes, at, frame.length))) {
      frames++;
      samples += frame.samples;
      bits += frame.kbps * 1000 * frame.samples;
    }
    at += frame.length;
  }
  if (frames === 0) throw notMp3("no audio frames");
  const durationSeconds = samples / sampleRate;
  return { frames, durationSeconds, sampleRate, bitrateKbps: Math.round(bits / samples / 1000) };
}
