// Splits Markdown into ~400-token, paragraph- and heading-aware chunks with offsets into the original text.

export interface Chunk {
  index: number;
  text: string;
  /** Character offsets into the original Markdown: `markdown.slice(start, end) === text`. */
  start: number;
  end: number;
  /** The nearest heading at or above the chunk's first character, without its `#` marks. */
  heading: string | null;
  tokenCount: number;
}

export interface ChunkOptions {
  targetTokens?: number;
  overlapRatio?: number;
  maxTokens?: number;
}

/**
 * A cheap token estimate, good enough for sizing chunks: the larger of words × 1.3 (English prose
 * averages ~1.3 BPE tokens per word) and non-space characters ÷ 4 (keeps code, URLs and one huge
 * "word" from being counted as a single token). Whitespace counts for nothing, so the estimate of
 * a joined text never exceeds the sum of the estimates of its parts.
 */
export function estimateTokens(text: string): number {
  let words = 0;
  let chars = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
    if (!space) {
      chars++;
      if (!inWord) words++;
    }
    inWord = !space;
  }
  return Math.ceil(Math.max(words * 1.3, chars / 4));
}

interface Unit {
  start: number;
  end: number;
  tokens: number;
  /** True for a heading line. */
  isHeading: boolean;
  /** The heading in force at this unit (its own text for a heading). */
  context: string | null;
  /** The first boundary level to cut at when a piece of this unit is needed (0 prose, 1 code). */
  level: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const MAX_HEADING_CHARS = 200;

/** Trims whitespace off a [start, end) range; returns null when nothing is left. */
function trimRange(s: string, start: number, end: number): [number, number] | null {
  while (start < end && /\s/.test(s[start]!)) start++;
  while (end > start && /\s/.test(s[end - 1]!)) end--;
  return start < end ? [start, end] : null;
}

interface Block {
  start: number;
  end: number;
  kind: "para" | "code" | "heading";
  heading: string | null;
}

/** Cuts the document into blocks: blank-line separated paragraphs, whole code fences, heading lines. */
function parseBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  let para: { start: number; end: number; lines: number } | null = null;
  let fence: { start: number; marker: string } | null = null;
  const push = (start: number, end: number, kind: Block["kind"], heading: string | null = null) => {
    const r = trimRange(md, start, end);
    if (r) blocks.push({ start: r[0], end: r[1], kind, heading });
  };
  const closePara = () => {
    if (para) push(para.start, para.end, "para");
    para = null;
  };
  let pos = 0;
  while (pos < md.length) {
    const nl = md.indexOf("\n", pos);
    const lineEnd = nl === -1 ? md.length : nl;
    const line = md.slice(pos, lineEnd).replace(/\r$/, "");
    const next = nl === -1 ? md.length : nl + 1;
    if (fence) {
      const m = FENCE.exec(line);
      if (m && m[1]![0] === fence.marker[0] && m[1]!.length >= fence.marker.length && line.trim() === m[1]) {
        push(fence.start, lineEnd, "code");
        fence = null;
      }
    } else if (FENCE.test(line)) {
      closePara();
      fence = { start: pos, marker: FENCE.exec(line)![1]! };
    } else if (line.trim() === "") {
      closePara();
    } else if (ATX.test(line) && line.length <= MAX_HEADING_CHARS) {
      closePara();
      const text = ATX.exec(line)![2]!
        .replace(/[ \t]+#+[ \t]*$/, "")
        .replace(/^#+$/, "")
        .trim();
      push(pos, lineEnd, "heading", text || null);
    } else if (para && para.lines === 1 && SETEXT_UNDERLINE.test(line) && para.end - para.start <= MAX_HEADING_CHARS) {
      const title = md.slice(para.start, para.end).trim();
      push(para.start, lineEnd, "heading", title);
      para = null;
    } else if (para) {
      para.end = lineEnd;
      para.lines++;
    } else {
      para = { start: pos, end: lineEnd, lines: 1 };
    }
    pos = next;
  }
  if (fence) push(fence.start, md.length, "code");
  closePara();
  return blocks;
}

// Boundaries tried in turn when a block is too big: sentences, lines, words, then raw characters.
const SPLITTERS: RegExp[] = [/(?<=[.!?…]["'’”)\]]*)\s+/g, /\r?\n/g, /\s+/g];

/** Cuts [start, end) at the boundaries of `level` (past the last: fixed-size character runs). */
function cut(md: string, start: number, end: number, level: number, maxTokens: number): [number, number][] {
  const out: [number, number][] = [];
  const push = (a: number, b: number) => {
    const r = trimRange(md, a, b);
    if (r) out.push(r);
  };
  const re = SPLITTERS[level];
  if (!re) {
    // Only whitespace-free text gets here, where the estimate is chars / 4.
    const step = maxTokens * 4;
    for (let a = start; a < end; ) {
      let b = Math.min(end, a + step);
      if (b < end && /[\uDC00-\uDFFF]/.test(md[b]!)) b--; // never cut a surrogate pair in half
      push(a, b);
      a = b;
    }
    return out;
  }
  const part = md.slice(start, end);
  let last = 0;
  for (const m of part.matchAll(re)) {
    push(start + last, start + m.index);
    last = m.index + m[0].length;
  }
  push(start + last, end);
  return out;
}

/** Breaks a range into units no bigger than maxTokens, trying gentler boundaries first. */
function splitRange(
  md: string,
  range: [number, number],
  maxTokens: number,
  level: number,
  out: [number, number][],
): void {
  const [start, end] = range;
  if (level > SPLITTERS.length || estimateTokens(md.slice(start, end)) <= maxTokens) {
    out.push(range);
    return;
  }
  const pieces = cut(md, start, end, level, maxTokens);
  if (pieces.length <= 1 && level < SPLITTERS.length) {
    splitRange(md, range, maxTokens, level + 1, out);
    return;
  }
  for (const p of pieces) splitRange(md, p, maxTokens, level + 1, out);
}

function toUnits(md: string, blocks: Block[], maxTokens: number): Unit[] {
  const units: Unit[] = [];
  let context: string | null = null;
  for (const b of blocks) {
    const tokens = estimateTokens(md.slice(b.start, b.end));
    if (b.kind === "heading" && tokens <= maxTokens) {
      context = b.heading;
      units.push({ start: b.start, end: b.end, tokens, isHeading: true, context, level: 0 });
      continue;
    }
    // Code is cut at lines first: sentence punctuation means nothing inside a fence.
    const level = b.kind === "code" ? 1 : 0;
    const ranges: [number, number][] = [];
    splitRange(md, [b.start, b.end], maxTokens, level, ranges);
    for (const [a, z] of ranges) {
      const t = ranges.length === 1 ? tokens : estimateTokens(md.slice(a, z));
      units.push({ start: a, end: z, tokens: t, isHeading: false, context, level });
    }
  }
  return units;
}

/** Tokens from each heading to the next one: tells whether a whole section still fits a chunk. */
function sectionSizes(units: Unit[]): number[] {
  const sizes = new Array<number>(units.length).fill(0);
  let running = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    running += units[i]!.tokens;
    if (units[i]!.isHeading) {
      sizes[i] = running;
      running = 0;
    }
  }
  return sizes;
}

const sum = (us: Unit[]) => us.reduce((n, u) => n + u.tokens, 0);

/**
 * The tail of a finished chunk repeated at the start of the next one: whole trailing units, or
 * when the last unit alone is too big, its trailing sentences. Always a proper suffix, so a chunk
 * is never wholly contained in its successor.
 */
function overlapTail(md: string, chunk: Unit[], budget: number): Unit[] {
  const tail: Unit[] = [];
  let tokens = 0;
  for (let i = chunk.length - 1; i >= 1; i--) {
    const u = chunk[i]!;
    if (tokens + u.tokens > budget) break;
    tail.unshift(u);
    tokens += u.tokens;
  }
  const last = chunk[chunk.length - 1];
  if (tail.length > 0 || !last || budget <= 0) return tail;
  const pieces = cut(md, last.start, last.end, last.level, Number.MAX_SAFE_INTEGER);
  for (let i = pieces.length - 1; i >= 1; i--) {
    const [a, z] = pieces[i]!;
    const t = estimateTokens(md.slice(a, z));
    if (tokens + t > budget) break;
    tail.unshift({ ...last, start: a, end: z, tokens: t });
    tokens += t;
  }
  return tail;
}

/**
 * Chunks Markdown for search. Paragraphs, list blocks and code fences stay whole unless one alone
 * exceeds maxTokens (then it is cut at sentences, lines, words, characters, in that order).
 * A chunk grows to ~targetTokens; a heading whose section would not fit starts a new chunk; the
 * next chunk repeats ~overlapRatio of the previous one's tail when a chunk was closed for size.
 */
export function chunkMarkdown(markdown: string, opts: ChunkOptions = {}): Chunk[] {
  const max = Math.max(1, opts.maxTokens ?? 512);
  const target = Math.max(1, Math.min(opts.targetTokens ?? 400, max));
  const overlapBudget = Math.floor(target * Math.min(Math.max(opts.overlapRatio ?? 0.15, 0), 0.5));
  const minTokens = Math.floor(target / 4);
  const units = toUnits(markdown, parseBlocks(markdown), max);
  const sections = sectionSizes(units);
  const chunks: Chunk[] = [];
  let cur: Unit[] = [];
  let fresh = 0; // units in `cur` that are not overlap copies of the previous chunk
  const emit = (us: Unit[]) => {
    const first = us[0]!;
    const start = first.start;
    const end = us[us.length - 1]!.end;
    const text = markdown.slice(start, end);
    chunks.push({ index: chunks.length, text, start, end, heading: first.context, tokenCount: estimateTokens(text) });
  };
  let tokens = 0; // sum(cur), kept incrementally: units can number in the hundreds of thousands
  const restart = (next: Unit[], freshCount: number) => {
    cur = next;
    tokens = sum(next);
    fresh = freshCount;
  };
  units.forEach((u, i) => {
    if (u.isHeading && fresh === 0)
      restart([], 0); // no overlap across a section boundary
    else if (u.isHeading && tokens >= minTokens && tokens + sections[i]! > target) {
      emit(cur);
      restart([], 0);
    }
    if (fresh > 0 && tokens + u.tokens > target && !(tokens < minTokens && tokens + u.tokens <= max)) {
      // A heading never ends a chunk: it moves on with the text it introduces.
      let heads = 0;
      while (heads < fresh - 1 && cur[cur.length - 1 - heads]!.isHeading) heads++;
      const moved = cur.slice(cur.length - heads);
      if (heads > 0 && sum(moved) + u.tokens <= max) {
        emit(cur.slice(0, cur.length - heads));
        restart(moved, heads);
      } else {
        emit(cur);
        restart(overlapTail(markdown, cur, Math.min(overlapBudget, max - u.tokens)), 0);
      }
    }
    cur.push(u);
    tokens += u.tokens;
    fresh++;
  });
  if (fresh > 0) emit(cur);
  return chunks;
}
