// Checks what a chat model sent back: JSON, the expected shape, speakers that exist in the format.
import type { Turn } from "./port.ts";

/** What was wrong with a reply, phrased so it can be shown to the model when asking again. */
export class ReplyError extends Error {
  override name = "ReplyError";
}

export interface OutlineSegment {
  title: string;
  points: string[];
}

const MAX_TURN_CHARS = 4000;

/** Parses JSON, tolerating a Markdown code fence around it (some models add one even in JSON mode). */
export function parseJsonReply(reply: string): unknown {
  const text = reply
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ReplyError(`the reply is not valid JSON (${(e as Error).message})`);
  }
}

/** The array inside the reply: the reply itself, or the first array under one of the given keys. */
function listIn(value: unknown, keys: string[]): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v;
    }
  }
  throw new ReplyError(`expected a JSON array, or an object with a "${keys[0]}" array`);
}

export function parseTurns(reply: string, speakers: string[]): Turn[] {
  const items = listIn(parseJsonReply(reply), ["turns", "transcript", "lines", "dialogue"]);
  if (items.length === 0) throw new ReplyError("the transcript has no turns");
  const canonical = new Map(speakers.map((s) => [s.toLowerCase(), s]));
  return items.map((item, i) => {
    if (!item || typeof item !== "object")
      throw new ReplyError(`turn ${i + 1} is not an object with "speaker" and "text"`);
    const { speaker, text } = item as Record<string, unknown>;
    if (typeof speaker !== "string") throw new ReplyError(`turn ${i + 1} has no "speaker" string`);
    const name = canonical.get(speaker.trim().toLowerCase());
    if (!name)
      throw new ReplyError(
        `turn ${i + 1} has speaker "${speaker}", but the only speakers are ${speakers.map((s) => `"${s}"`).join(" and ")}`,
      );
    if (typeof text !== "string" || text.trim() === "") throw new ReplyError(`turn ${i + 1} has no "text"`);
    if (text.length > MAX_TURN_CHARS) throw new ReplyError(`turn ${i + 1} is longer than ${MAX_TURN_CHARS} characters`);
    return { speaker: name, text: text.replace(/\s+/g, " ").trim() };
  });
}

export function parseOutline(reply: string, maxSegments: number): OutlineSegment[] {
  const items = listIn(parseJsonReply(reply), ["segments", "outline", "sections"]);
  if (items.length === 0) throw new ReplyError("the outline has no segments");
  return items.slice(0, maxSegments).map((item, i) => {
    if (typeof item === "string" && item.trim()) return { title: item.trim(), points: [] };
    if (!item || typeof item !== "object") throw new ReplyError(`segment ${i + 1} is not an object with a "title"`);
    const { title, points } = item as Record<string, unknown>;
    if (typeof title !== "string" || title.trim() === "") throw new ReplyError(`segment ${i + 1} has no "title"`);
    const list = Array.isArray(points)
      ? points.filter((p): p is string => typeof p === "string" && p.trim() !== "")
      : [];
    return { title: title.trim(), points: list.map((p) => p.trim()) };
  });
}
