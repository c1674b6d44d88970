// A small Server-Sent Events reader for tests: parses frames from a response body as they arrive.
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export function parseFrame(block: string): SseFrame {
  const f: SseFrame = { comments: [] };
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) f.comments.push(line.slice(1).trim());
    else {
      const i = line.indexOf(":");
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
      if (field === "id" || field === "event" || field === "retry") f[field] = value;
      else if (field === "data") f.data = f.data === undefined ? value : `${f.data}\n${value}`;
    }
  }
  return f;
}

export function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const frames: SseFrame[] = [];
  // A read that outlived a timeout is kept for the next call, so no chunk is lost.
  let pending: ReturnType<typeof reader.read> | undefined;

  async function fill(deadline: number): Promise<boolean> {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), left)));
    pending ??= reader.read();
    const chunk = await Promise.race([pending, timeout]);
    clearTimeout(timer);
    if (chunk === "timeout") return false;
    pending = undefined;
    if (chunk.done) throw new Error("the stream ended");
    buffer += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      frames.push(parseFrame(buffer.slice(0, end)));
      buffer = buffer.slice(end + 2);
    }
    return true;
  }

  return {
    /** The next frame matching `match` (frames before it are dropped); throws after `timeoutMs`. */
    async next(match: (f: SseFrame) => boolean = () => true, timeoutMs = 5000): Promise<SseFrame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (frames.length) {
          const f = frames.shift()!;
          if (match(f)) return f;
        }
        if (!(await fill(deadline))) throw new Error(`no matching event within ${timeoutMs} ms`);
      }
    },
    /** The next event frame (one with data), skipping comments and cursor-only frames. */
    event(timeoutMs = 5000): Promise<SseFrame> {
      return this.next((f) => f.data !== undefined, timeoutMs);
    },
    /** Every frame that arrives within `ms` (for asserting that nothing more came). */
    async drainFor(ms: number): Promise<SseFrame[]> {
      const deadline = Date.now() + ms;
      while (await fill(deadline));
      return frames.splice(0);
    },
    cancel: () => reader.cancel(),
  };
}

export const dataOf = (f: SseFrame) =>
  JSON.parse(f.data!) as { id: string | null; type: string; occurred_at: string; data: Record<string, any> };
