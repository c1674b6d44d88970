// Worker thread for audio assembly and MP3 encoding, which take seconds for a long episode.
import { serveWorker } from "../../../ai/speech/worker-host.ts";
import { concatWithPauses, durationSeconds, normalisePeak, type TimedClip } from "./assemble.ts";
import { encodeMp3 } from "./mp3-encode.ts";

export type EncodeJob =
  | { op: "encode"; samples: Float32Array; sampleRate: number; kbps?: number }
  | { op: "assemble"; clips: TimedClip[]; sampleRate?: number; pauseMs?: number; kbps?: number; normalise?: boolean };

export interface EncodedAudio {
  mp3: Uint8Array<ArrayBuffer>;
  durationSeconds: number;
}

serveWorker<EncodeJob, EncodedAudio>((job) => {
  let samples: Float32Array;
  let sampleRate: number;
  if (job.op === "encode") {
    ({ samples, sampleRate } = job);
  } else {
    const track = concatWithPauses(job.clips, { sampleRate: job.sampleRate, pauseMs: job.pauseMs });
    samples = job.normalise === false ? track.samples : normalisePeak(track.samples);
    sampleRate = track.sampleRate;
  }
  const mp3 = encodeMp3(samples, sampleRate, { kbps: job.kbps });
  return { result: { mp3, durationSeconds: durationSeconds(samples, sampleRate) }, transfer: [mp3.buffer] };
});
