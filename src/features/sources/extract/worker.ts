// Worker thread for extraction: HTML and PDF parsing run here, so a hostile page never blocks HTTP.
import { setPriority } from "node:os";
import { extract } from "./index.ts";
import type { ExtractReply, ExtractRequest } from "./pool-protocol.ts";
import { ExtractError } from "./types.ts";

declare var self: Worker;

// On Linux a thread has its own nice value: the thread answering requests wins the CPU over this one.
try {
  setPriority(0, 10);
} catch {
  // not permitted or not supported: run at normal priority
}

self.onmessage = async (event: MessageEvent<ExtractRequest>) => {
  const { id, input, limits } = event.data;
  let reply: ExtractReply;
  try {
    reply = { id, ok: true, result: await extract(input, limits) };
  } catch (err) {
    const code = err instanceof ExtractError ? err.code : undefined;
    reply = { id, ok: false, code, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};

self.postMessage({ ready: true } satisfies ExtractReply);
