// The worker client against a real fixture thread: multiplexing, errors, crashes and restarts, aborts.
import { afterEach, describe, expect, test } from "bun:test";
import { AppError } from "../../errors.ts";
import { createWorkerClient, workerUrl, type WorkerClient } from "./worker-client.ts";
import type { FixtureJob } from "./worker-client.fixture.ts";
import { expectWorkersAtProcessPriority } from "../../../test/threads.ts";

type Reply = { value: number; threadId: string; bytes?: Uint8Array };
let client: WorkerClient<FixtureJob, Reply>;
const fixture = new URL("./worker-client.fixture.ts", import.meta.url);

afterEach(() => client?.close());

describe("worker client", () => {
  test("multiplexes concurrent calls and matches replies to callers", async () => {
    client = createWorkerClient(fixture, "fixture");
    const values = [1, 2, 3, 4, 5, 6, 7, 8];
    const replies = await Promise.all(values.map((value) => client.call({ mode: "echo", value })));
    expect(replies.map((r) => r.value)).toEqual(values);
    expect(new Set(replies.map((r) => r.threadId)).size).toBe(1); // one long-lived thread
  });

  test("the thread runs at the process's own priority (a lowered one starved it behind other processes)", async () => {
    client = createWorkerClient(fixture, "fixture");
    await client.call({ mode: "echo", value: 1 });
    expectWorkersAtProcessPriority();
  });

  test("an urgent call overtakes queued calls, not the one running", async () => {
    client = createWorkerClient(fixture, "fixture");
    const order: number[] = [];
    const calls = [1, 2, 3].map((value) => client.call({ mode: "echo", value }).then(() => order.push(value)));
    calls.push(client.call({ mode: "echo", value: 9 }, { urgent: true }).then(() => order.push(9)));
    await Promise.all(calls);
    expect(order).toEqual([1, 9, 2, 3]);
  });

  test("moves transferred buffers back from the thread", async () => {
    client = createWorkerClient(fixture, "fixture");
    const reply = await client.call({ mode: "buffer", value: 1000 });
    expect(reply.bytes?.length).toBe(1000);
    expect(reply.bytes?.[999]).toBe(7);
  });

  test("rethrows handler errors with their AppError code and keeps the thread", async () => {
    client = createWorkerClient(fixture, "fixture");
    const err = await client.call({ mode: "fail", value: 9 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("validation_failed");
    expect((err as AppError).detail).toBe("bad value 9");
    expect((await client.call({ mode: "echo", value: 1 })).value).toBe(1);
    expect(client.crashes).toBe(0);
  });

  test("a thread that exits fails only its own call; queued calls run on a fresh thread", async () => {
    client = createWorkerClient(fixture, "fixture");
    const before = await client.call({ mode: "echo", value: 0 });
    const dying = client.call({ mode: "exit", value: 0 });
    const queued = client.call({ mode: "echo", value: 5 });
    await expect(dying).rejects.toThrow(/fixture worker crashed/);
    const after = await queued;
    expect(after.value).toBe(5);
    expect(after.threadId).not.toBe(before.threadId);
    expect(client.crashes).toBe(1);
  });

  test("an uncaught error in the thread rejects the call in flight and the client recovers", async () => {
    client = createWorkerClient(fixture, "fixture");
    await expect(client.call({ mode: "uncaught", value: 0 })).rejects.toThrow(/boom from the thread/);
    expect((await client.call({ mode: "echo", value: 2 })).value).toBe(2);
  });

  test("an aborted call is dropped from the queue", async () => {
    client = createWorkerClient(fixture, "fixture");
    const controller = new AbortController();
    const first = client.call({ mode: "echo", value: 1 });
    const second = client.call({ mode: "echo", value: 2 }, { signal: controller.signal });
    controller.abort(new Error("cancelled"));
    await expect(second).rejects.toThrow("cancelled");
    expect((await first).value).toBe(1);
  });

  test("close rejects pending calls", async () => {
    client = createWorkerClient(fixture, "fixture");
    const pending = client.call({ mode: "uncaught", value: 0 });
    await client.close();
    await expect(pending).rejects.toThrow(/closed/);
  });

  test("workerUrl points into the embedded filesystem of a compiled binary", () => {
    expect(workerUrl("./w.ts", "file:///srv/app/src/ai/speech/x.ts", "ai/speech/w.ts").href).toBe(
      "file:///srv/app/src/ai/speech/w.ts",
    );
    expect(workerUrl("./w.ts", "file:///$bunfs/root/commonplace", "ai/speech/w.ts").href).toBe(
      "file:///$bunfs/root/ai/speech/w.ts",
    );
  });
});
