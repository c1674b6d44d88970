// The script-writing port: a format, the source texts and a language in; speaker turns out.
import type { FormatSpec } from "../formats.ts";

export interface Turn {
  speaker: string;
  text: string;
}

export interface ScriptDocument {
  id: string;
  title: string;
  /** The extracted Markdown of the source. */
  markdown: string;
}

export interface ScriptRequest {
  spec: FormatSpec;
  title: string;
  /** BCP 47 tag; the script is written in this language. */
  language: string;
  documents: ScriptDocument[];
  signal?: AbortSignal;
}

export interface ScriptWriter {
  /** Recorded on the episode (`builtin` or the chat model's id). */
  readonly id: string;
  write(req: ScriptRequest): Promise<Turn[]>;
  /**
   * The spoken words the script for this request will have, when the writer can tell before writing
   * (the builtin one writes it: deterministic, a few milliseconds); null when it cannot, and then the
   * estimate is the format's target.
   */
  plannedWords?(req: ScriptRequest): Promise<number | null>;
}

export const spokenWords = (turns: Turn[]): number =>
  turns.reduce((n, t) => n + t.text.split(/\s+/).filter(Boolean).length, 0);

/** A script that cannot be written from this input (no text, a model that keeps answering badly). */
export class ScriptError extends Error {
  override name = "ScriptError";
  constructor(
    readonly code: "script_invalid" | "no_content",
    message: string,
  ) {
    super(message);
  }
}
