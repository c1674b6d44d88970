// Generation progress for the live stream: writing the script → speech → encoding, with a
// percentage, published (never stored) at most twice a second per episode; a new phase always goes out.
export type ProgressPhase = "script" | "speech" | "encoding";

export const PROGRESS_MIN_INTERVAL_MS = 500;
/** Share of the bar before speech starts, and where encoding the rest begins. */
const SPEECH_FROM = 5;
const ENCODING_FROM = 90;

export interface ProgressNote {
  phase: ProgressPhase;
  percent: number;
  detail: string;
}

export function createProgressReporter(
  publish: (p: ProgressNote) => void,
  now: () => number,
  minIntervalMs = PROGRESS_MIN_INTERVAL_MS,
) {
  let lastAt = -Infinity;
  let lastPhase: ProgressPhase | undefined;
  function report(p: ProgressNote): void {
    const t = now();
    if (p.phase === lastPhase && t - lastAt < minIntervalMs) return;
    lastAt = t;
    lastPhase = p.phase;
    publish(p);
  }
  return {
    script: () => report({ phase: "script", percent: 0, detail: "Writing the script" }),
    speech: (done: number, total: number) =>
      report({
        phase: "speech",
        percent: Math.round(SPEECH_FROM + ((ENCODING_FROM - SPEECH_FROM) * done) / Math.max(1, total)),
        detail: `Speaking line ${done} of ${total}`,
      }),
    encoding: () => report({ phase: "encoding", percent: ENCODING_FROM, detail: "Encoding the MP3" }),
  };
}
