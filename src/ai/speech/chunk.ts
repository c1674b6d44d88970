// Splits long text into sentence-aligned pieces so each synthesis call stays small.

/** Sentence ends: terminal punctuation (optionally closed by quotes/brackets) followed by space, or a blank line. */
const SENTENCE_END = /(?<=[.!?\u2026]["'\u201d\u2019)\]]*)\s+|\n\s*\n/;

export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0);
}

/** Cuts a sentence longer than maxChars at the last comma or space before the limit. */
function hardSplit(sentence: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let cut = Math.max(window.lastIndexOf(", "), window.lastIndexOf("; "));
    if (cut < maxChars / 2) cut = window.lastIndexOf(" ");
    if (cut <= 0) cut = maxChars;
    parts.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** Packs whole sentences into chunks of at most maxChars (a longer sentence is cut at a comma or space). */
export function chunkText(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const sentence of splitSentences(text)) {
    for (const piece of hardSplit(sentence, maxChars)) {
      if (current && current.length + 1 + piece.length > maxChars) {
        chunks.push(current);
        current = piece;
      } else {
        current = current ? `${current} ${piece}` : piece;
      }
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
