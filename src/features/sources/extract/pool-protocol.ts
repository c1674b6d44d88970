// Messages between the extraction pool and its worker threads.
import type { ExtractErrorCode, ExtractInput, ExtractLimits, Extracted } from "./types.ts";

export interface ExtractRequest {
  id: number;
  input: ExtractInput;
  limits: ExtractLimits;
}

export type ExtractReply =
  | { ready: true }
  | { id: number; ok: true; result: Extracted }
  | { id: number; ok: false; code?: ExtractErrorCode; error: string };
