// A small RIFF/WAVE reader and writer: integer PCM (8/16/24/32-bit) or 32-bit float in, mono Float32 out.
import { AppError } from "../../errors.ts";
import type { AudioClip } from "./port.ts";

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

interface WavFormat {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

function bad(detail: string): AppError {
  return new AppError("unsupported_media_type", `WAV: ${detail}`);
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

function readFormat(view: DataView, at: number, size: number): WavFormat {
  if (size < 16) throw bad("fmt chunk is too short");
  let format = view.getUint16(at, true);
  // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its sub-format GUID.
  if (format === FORMAT_EXTENSIBLE && size >= 40) format = view.getUint16(at + 24, true);
  return {
    format,
    channels: view.getUint16(at + 2, true),
    sampleRate: view.getUint32(at + 4, true),
    bitsPerSample: view.getUint16(at + 14, true),
  };
}

function sampleReader(view: DataView, fmt: WavFormat): (offset: number) => number {
  const { format, bitsPerSample: bits } = fmt;
  if (format === FORMAT_FLOAT && bits === 32) return (o) => view.getFloat32(o, true);
  if (format !== FORMAT_PCM) throw bad(`unsupported sample format ${format}`);
  if (bits === 16) return (o) => view.getInt16(o, true) / 32768;
  if (bits === 8) return (o) => (view.getUint8(o) - 128) / 128;
  if (bits === 24)
    return (o) => (view.getUint8(o) | (view.getUint8(o + 1) << 8) | (view.getInt8(o + 2) << 16)) / 8388608;
  if (bits === 32) return (o) => view.getInt32(o, true) / 2147483648;
  throw bad(`unsupported bit depth ${bits}`);
}

/** Averages interleaved channels into one. */
function downmix(view: DataView, start: number, frames: number, fmt: WavFormat): Float32Array {
  const read = sampleReader(view, fmt);
  const width = fmt.bitsPerSample / 8;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    const base = start + i * width * fmt.channels;
    for (let c = 0; c < fmt.channels; c++) sum += read(base + c * width);
    out[i] = sum / fmt.channels;
  }
  return out;
}

export function isWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0) === "RIFF" && ascii(bytes, 8) === "WAVE";
}

export function decodeWav(bytes: Uint8Array): AudioClip {
  if (!isWav(bytes)) throw bad("missing RIFF/WAVE header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: WavFormat | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") fmt = readFormat(view, body, Math.min(size, bytes.length - body));
    if (id === "data") {
      if (!fmt) throw bad("data chunk before fmt chunk");
      return decodeData(view, body, size, fmt);
    }
    at = body + size + (size % 2); // chunks are word-aligned
  }
  throw bad(fmt ? "no data chunk" : "no fmt chunk");
}

function decodeData(view: DataView, body: number, size: number, fmt: WavFormat): AudioClip {
  if (fmt.channels < 1 || fmt.channels > 16) throw bad(`unsupported channel count ${fmt.channels}`);
  if (fmt.sampleRate < 1000 || fmt.sampleRate > 384000) throw bad(`unsupported sample rate ${fmt.sampleRate}`);
  const frameBytes = (fmt.bitsPerSample / 8) * fmt.channels;
  if (!Number.isInteger(frameBytes) || frameBytes <= 0) throw bad(`unsupported bit depth ${fmt.bitsPerSample}`);
  // Streamed WAVs carry a placeholder size (0 or 0xFFFFFFFF): trust the bytes actually present.
  const available = view.byteLength - body;
  const length = size === 0 || size > available ? available : size;
  const frames = Math.floor(length / frameBytes);
  return { samples: downmix(view, body, frames, fmt), sampleRate: fmt.sampleRate };
}

/** Raw signed 16-bit little-endian PCM (OpenAI's "pcm" format is 24 kHz mono). */
export function decodePcm16(bytes: Uint8Array, sampleRate: number, channels = 1): AudioClip {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames = Math.floor(bytes.length / (2 * channels));
  const fmt = { format: FORMAT_PCM, channels, sampleRate, bitsPerSample: 16 };
  return { samples: downmix(view, 0, frames, fmt), sampleRate };
}

/** 16-bit mono PCM WAV. */
export function encodeWav(clip: AudioClip): Uint8Array<ArrayBuffer> {
  const { samples, sampleRate } = clip;
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, s: string) => bytes.set(new TextEncoder().encode(s), at);
  text(0, "RIFF");
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, FORMAT_PCM, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(44 + i * 2, Math.round(s * 32767), true);
  }
  return bytes;
}
