// A worker entry for worker-client tests: echoes, fails, or dies on request.
import { AppError } from "../../errors.ts";
import { serveWorker } from "./worker-host.ts";

const threadId = crypto.randomUUID(); // tells one thread from its replacement

export type FixtureJob = { mode: "echo" | "fail" | "exit" | "uncaught" | "buffer"; value: number };

serveWorker<FixtureJob, { value: number; threadId: string; bytes?: Uint8Array }>((job) => {
  if (job.mode === "fail") throw new AppError("validation_failed", `bad value ${job.value}`);
  if (job.mode === "exit") process.exit(3);
  if (job.mode === "uncaught") {
    setTimeout(() => {
      throw new Error("boom from the thread");
    });
    return new Promise(() => {}); // never replies: only the crash can settle this call
  }
  if (job.mode === "buffer") {
    const bytes = new Uint8Array(job.value).fill(7);
    return { result: { value: job.value, threadId, bytes }, transfer: [bytes.buffer] };
  }
  return { result: { value: job.value, threadId } };
});
