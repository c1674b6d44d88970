// Word error rate of a synthetic voice, judged by an offline recogniser (Debian's pocketsphinx), when installed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AudioClip } from "../../src/ai/speech/port.ts";
import { encodeWav } from "../../src/ai/speech/wav.ts";

/** Plain sentences without digits or names, so the recogniser's dictionary and language model know every word. */
export const WER_SENTENCES = [
  "Green roofs cool buildings in summer and hold back storm water in heavy rain.",
  "The city measured the difference over three years and found the streets were quieter.",
  "A colony of honeybees chooses a new home by sending scouts to look at several sites.",
  "Scouts that find a good cavity return to the swarm and dance to recruit other bees.",
  "Bread rises because yeast and bacteria in the starter eat sugar and release gas.",
  "Critics argue that the benefits are small and the costs fall on people who cannot pay.",
  "Supporters say the plan saves money in the long run and makes the air cleaner.",
  "The study followed two thousand workers who moved to a shorter week last year.",
  "Most of the food we throw away ends up in landfills, where it slowly turns into methane.",
  "A compost pile should feel like a wrung out sponge, damp but never soaking wet.",
  "The hosts disagree about whether the evidence is strong enough to change the rules.",
  "Nobody knows yet how long the new material will last outside in the winter.",
  "Wolves were released into the valley and the elk began to move more often.",
  "Heat pumps move warmth from the outside air into the house instead of burning fuel.",
  "The river carries sand and mud down to the sea, where it builds a wide delta.",
  "Children who sleep well remember more of what they learned the day before.",
  "An index fund buys every stock in the market and charges very low fees.",
  "The old bridge was closed after engineers found cracks in two of its supports.",
  "Farmers plant beans after wheat because the roots put nitrogen back into the soil.",
  "Most stars spend their lives burning hydrogen in their cores for billions of years.",
];

export function recogniserAvailable(): boolean {
  return Bun.which("pocketsphinx_continuous") !== null;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, " ")
    .split(/\s+/)
    .filter(Boolean);

/** Word-level edit distance: substitutions, insertions and deletions. */
export function editDistance(ref: string[], hyp: string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[hyp.length]!;
}

/** Resamples to 16 kHz (what the acoustic model expects) by linear interpolation. */
function to16k(clip: AudioClip): AudioClip {
  if (clip.sampleRate === 16000) return clip;
  const ratio = clip.sampleRate / 16000;
  const out = new Float32Array(Math.floor(clip.samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const j = Math.floor(x);
    const a = clip.samples[j] ?? 0;
    const b = clip.samples[j + 1] ?? a;
    out[i] = a + (b - a) * (x - j);
  }
  return { samples: out, sampleRate: 16000 };
}

/**
 * Speaks every sentence, joins them with pauses into one recording (one recogniser start per voice),
 * decodes it with pocketsphinx's stock US English models and returns the word error rate, in percent.
 */
export async function wordErrorRate(
  speak: (text: string) => Promise<AudioClip>,
  sentences = WER_SENTENCES,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "cp-wer-"));
  try {
    const pause = new Float32Array(16000 * 0.8);
    const parts: Float32Array[] = [];
    for (const sentence of sentences) parts.push(to16k(await speak(sentence)).samples, pause);
    const samples = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (samples.set(p, at), at + p.length), 0);
    const file = join(dir, "all.wav");
    await Bun.write(file, encodeWav({ samples, sampleRate: 16000 }));
    const proc = Bun.spawn(["pocketsphinx_continuous", "-infile", file, "-logfn", "/dev/null"], {
      stdout: "pipe",
      stderr: "ignore",
    });
    const heard = await new Response(proc.stdout).text();
    await proc.exited;
    const ref = sentences.flatMap(words);
    return (100 * editDistance(ref, words(heard))) / ref.length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
