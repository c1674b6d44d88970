// Mono MP3 encoding with LAME (pure-JS port, LGPL): CPU-heavy, so callers off a worker should prefer encodeMp3Async.
import { Mp3Encoder } from "@breezystack/lamejs";
import { invalid } from "../../../errors.ts";

/** Sample rates MPEG-1/2/2.5 Layer III can carry. */
export const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
/** MPEG-1 (32 kHz and up) and MPEG-2/2.5 (below) allow different bitrate tables. */
const BITRATES_MPEG1 = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_MPEG2 = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const BLOCK = 1152;

export interface Mp3Options {
  kbps?: number;
}

function check(sampleRate: number, kbps: number): void {
  if (!MP3_SAMPLE_RATES.includes(sampleRate)) {
    throw invalid("sampleRate", `MP3 cannot carry ${sampleRate} Hz; use one of ${MP3_SAMPLE_RATES.join(", ")}`);
  }
  const allowed = sampleRate >= 32000 ? BITRATES_MPEG1 : BITRATES_MPEG2;
  if (!allowed.includes(kbps))
    throw invalid("kbps", `${kbps} kbps is not valid at ${sampleRate} Hz; use one of ${allowed.join(", ")}`);
}

/** Constant-bitrate mono MP3 of the samples (clipped to -1..1). */
export function encodeMp3(samples: Float32Array, sampleRate: number, opts: Mp3Options = {}): Uint8Array<ArrayBuffer> {
  const kbps = opts.kbps ?? 56;
  check(sampleRate, kbps);
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const pcm = new Int16Array(BLOCK);
  const parts: Uint8Array[] = [];
  let size = 0;
  const keep = (chunk: Uint8Array) => {
    if (chunk.length === 0) return;
    // lamejs hands back signed bytes; view them as unsigned without copying.
    parts.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    size += chunk.length;
  };
  for (let start = 0; start < samples.length; start += BLOCK) {
    const end = Math.min(samples.length, start + BLOCK);
    for (let i = start; i < end; i++) {
      const s = samples[i]!;
      pcm[i - start] = s >= 1 ? 32767 : s <= -1 ? -32768 : Math.round(s * 32767);
    }
    keep(encoder.encodeBuffer(end - start === BLOCK ? pcm : pcm.subarray(0, end - start)));
  }
  keep(encoder.flush());
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
