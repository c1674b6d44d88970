// Async MP3 encoding and episode assembly in a worker thread, so the HTTP event loop stays responsive.
import { createWorkerClient, workerUrl } from "../../../ai/speech/worker-client.ts";
import type { TimedClip } from "./assemble.ts";
import type { EncodedAudio, EncodeJob } from "./encode-worker.ts";

export interface AudioEncoderOptions {
  /** Where the worker entry lives; the default finds it both in development and in a compiled binary. */
  workerUrl?: URL | string;
}

export interface AssembleOptions {
  /** Output rate; must be one MP3 supports (24000 and 22050 suit speech). */
  sampleRate?: number;
  pauseMs?: number;
  kbps?: number;
  /** Peak-normalise the joined track (default true). */
  normalise?: boolean;
  /** Move the clips' sample buffers to the worker instead of copying them (the caller's arrays become empty). */
  transfer?: boolean;
  signal?: AbortSignal;
}

export interface AudioEncoder {
  encodeMp3Async(
    samples: Float32Array,
    sampleRate: number,
    opts?: { kbps?: number; signal?: AbortSignal },
  ): Promise<Uint8Array<ArrayBuffer>>;
  /** Resample, join with pauses, normalise and encode — all off the main thread. */
  assembleMp3Async(clips: TimedClip[], opts?: AssembleOptions): Promise<EncodedAudio>;
  close(): Promise<void>;
}

export function defaultEncodeWorkerUrl(): URL {
  return workerUrl("./encode-worker.ts", import.meta.url, "features/podcasts/audio/encode-worker.ts");
}

export function createAudioEncoder(opts: AudioEncoderOptions = {}): AudioEncoder {
  const client = createWorkerClient<EncodeJob, EncodedAudio>(
    opts.workerUrl ?? defaultEncodeWorkerUrl(),
    "audio encoder",
  );

  return {
    async encodeMp3Async(samples, sampleRate, o = {}) {
      const reply = await client.call({ op: "encode", samples, sampleRate, kbps: o.kbps }, { signal: o.signal });
      return reply.mp3;
    },
    assembleMp3Async(clips, o = {}) {
      const { transfer, signal, ...rest } = o;
      // Only the audio fields cross the thread boundary, whatever else the caller's clip objects carry.
      const plain = clips.map((c) => ({ samples: c.samples, sampleRate: c.sampleRate, pauseAfterMs: c.pauseAfterMs }));
      const buffers = transfer ? [...new Set(plain.map((c) => c.samples.buffer))] : [];
      return client.call({ op: "assemble", clips: plain, ...rest }, { signal, transfer: buffers });
    },
    close: client.close,
  };
}
