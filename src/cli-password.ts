// Where the admin CLI gets a password without putting it on the command line: standard input, or a
// prompt that does not echo when standard input is a terminal.

/** A password piped in (`--password-stdin`): everything read, less one trailing line break. */
export async function passwordFromStdin(read: () => Promise<string> = () => Bun.stdin.text()): Promise<string> {
  return (await read()).replace(/\r?\n$/, "");
}

export class PromptInterrupted extends Error {
  override name = "PromptInterrupted";
}

/** The parts of a terminal the prompt uses (process.stdin / process.stderr, or a test's stand-ins). */
export interface PromptInput {
  setRawMode(on: boolean): unknown;
  on(event: "data", fn: (chunk: Buffer | string) => void): unknown;
  off(event: "data", fn: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/**
 * Reads one line from a terminal in raw mode, so nothing typed is echoed: Enter ends it, Backspace
 * deletes, Ctrl-C rejects with PromptInterrupted, escape sequences (arrow keys) are ignored.
 */
export function promptHidden(
  question: string,
  input: PromptInput,
  output: { write(s: string): unknown },
): Promise<string> {
  // Raw mode first: whatever is typed once the question shows must not echo.
  input.setRawMode(true);
  input.resume();
  output.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (err?: Error) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      const chars = [...text];
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i]!;
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish();
        if (ch === "\u0003") return finish(new PromptInterrupted("interrupted"));
        if (ch === "\u007f" || ch === "\b") value = [...value].slice(0, -1).join("");
        else if (ch === "\u001b") {
          // CSI: ESC [ params final-letter
          if (chars[i + 1] === "[") for (i += 2; i < chars.length && !/[A-Za-z~]/.test(chars[i]!); i++);
        } else if (ch >= " ") value += ch;
      }
    };
    input.on("data", onData);
  });
}

/** Asks twice on the terminal; a mismatch or an empty answer is an error the caller reports. */
export async function promptNewPassword(input: PromptInput, output: { write(s: string): unknown }): Promise<string> {
  const first = await promptHidden("Password: ", input, output);
  if (!first) throw new Error("no password given");
  const again = await promptHidden("Repeat password: ", input, output);
  if (again !== first) throw new Error("the passwords do not match");
  return first;
}
