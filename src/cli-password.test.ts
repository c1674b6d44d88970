// The CLI's password sources: stdin with its line break dropped, and a raw-mode prompt that echoes nothing.
import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { passwordFromStdin, PromptInterrupted, promptHidden, promptNewPassword } from "./cli-password.ts";

/** A terminal stand-in: records raw-mode changes and lets the test type (kept until someone reads). */
function fakeTerminal() {
  const events = new EventEmitter();
  const modes: boolean[] = [];
  const typeahead: string[] = [];
  let written = "";
  return {
    input: {
      setRawMode: (on: boolean) => modes.push(on),
      on: (e: "data", fn: (c: Buffer | string) => void) => {
        events.on(e, fn);
        const next = typeahead.shift();
        if (next !== undefined) fn(Buffer.from(next));
      },
      off: (e: "data", fn: (c: Buffer | string) => void) => events.off(e, fn),
      resume: () => undefined,
      pause: () => undefined,
    },
    output: { write: (s: string) => (written += s) },
    /** Types now if a prompt is reading, else when the next one starts (one chunk per prompt). */
    type: (text: string) => {
      if (events.listenerCount("data") > 0) events.emit("data", Buffer.from(text));
      else typeahead.push(text);
    },
    modes,
    written: () => written,
  };
}

test("stdin: one trailing line break is dropped, inner spaces kept", async () => {
  expect(await passwordFromStdin(async () => "a long password\n")).toBe("a long password");
  expect(await passwordFromStdin(async () => "crlf\r\n")).toBe("crlf");
  expect(await passwordFromStdin(async () => " spaced  ")).toBe(" spaced  ");
});

describe("promptHidden", () => {
  test("reads in raw mode and echoes nothing but the question; backspace and arrow keys are handled", async () => {
    const t = fakeTerminal();
    const answer = promptHidden("Password: ", t.input, t.output);
    t.type("hunter");
    t.type("3\u007f2\u001b[D");
    t.type("!\r");
    expect(await answer).toBe("hunter2!");
    expect(t.written()).toBe("Password: \n");
    expect(t.modes).toEqual([true, false]);
  });

  test("Ctrl-C interrupts and leaves the terminal as it was", async () => {
    const t = fakeTerminal();
    const answer = promptHidden("Password: ", t.input, t.output);
    t.type("abc\u0003");
    await expect(answer).rejects.toBeInstanceOf(PromptInterrupted);
    expect(t.modes).toEqual([true, false]);
  });

  test("a new password is asked twice and must match", async () => {
    const t = fakeTerminal();
    const ok = promptNewPassword(t.input, t.output);
    t.type("same one\r");
    t.type("same one\r");
    expect(await ok).toBe("same one");
    const t2 = fakeTerminal();
    const bad = promptNewPassword(t2.input, t2.output);
    t2.type("one\r");
    t2.type("two\r");
    await expect(bad).rejects.toThrow("do not match");
  });
});
