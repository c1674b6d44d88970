// What the extraction pool hands its worker threads for one page.
import type { ExtractInput, ExtractLimits } from "./types.ts";

export interface ExtractTask {
  input: ExtractInput;
  limits: ExtractLimits;
}
