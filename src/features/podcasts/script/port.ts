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
}

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
