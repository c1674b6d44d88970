// The article-extraction benchmark's own metric (its evaluate.py), ported line for line:
// 4-token shingles with counts, per-page TP/FP/FN scaled to sum to 1, means over pages.

export type TpFpFn = readonly [tp: number, fp: number, fn: number];

// Python's `\w` under re.UNICODE: letters, every kind of number, and the underscore (no marks).
const TOKEN = /[\p{L}\p{N}_]+/gu;
const SHINGLE = 4;

/**
 * `\w+` tokens as evaluate.py finds them: case is kept, as its findall keeps it (its regex is
 * case-insensitive, which changes nothing for `\w`); `lowercase` is the reading some summaries give.
 */
export function tokenize(text: string, lowercase = false): string[] {
  return (lowercase ? text.toLowerCase() : text).match(TOKEN) ?? [];
}

function shingles(text: string, lowercase: boolean, n = SHINGLE): Map<string, number> {
  const tokens = tokenize(text, lowercase);
  const counts = new Map<string, number>();
  // range(0, max(1, len - n + 1)): a text shorter than n still gives its one short shingle.
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const shingle = tokens.slice(i, i + n);
    if (!shingle.length) continue;
    const key = shingle.join("\u0000");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** evaluate.py's string_shingle_matching: normalised so that long pages weigh no more than short ones. */
export function shingleMatch(truth: string, predicted: string, lowercase = false): TpFpFn {
  const t = shingles(truth, lowercase);
  const p = shingles(predicted, lowercase);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [tp, fp, fn];
}

export function precisionScore([tp, fp, fn]: TpFpFn): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

export function recallScore([tp, fp, fn]: TpFpFn): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** evaluate.py's metrics_from_tp_fp_fns: precision over pages that produced text, recall over pages with truth. */
export function summarize(pages: TpFpFn[]): { precision: number; recall: number; f1: number } {
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0).map(precisionScore));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0).map(recallScore));
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

/** evaluate.py's accuracy: the page's token sequence is exactly the truth's. */
export function exactMatch(truth: string, predicted: string, lowercase = false): boolean {
  const a = tokenize(truth, lowercase);
  const b = tokenize(predicted, lowercase);
  return a.length === b.length && a.every((token, i) => token === b[i]);
}
