// Structured JSON logs, one line per event, buffered so logging never dominates a request.
type Level = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  flush(): void;
}

export function createLogger(level: Level, write: (chunk: string) => void = defaultWrite): Logger {
  let buffer: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const out = buffer.join("");
    buffer = [];
    write(out);
  };
  const log = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    buffer.push(JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...fields }) + "\n");
    if (l === "error" || buffer.length >= 256) flush();
    else if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 50).unref?.();
    }
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error"), flush };
}

function defaultWrite(chunk: string) {
  process.stdout.write(chunk);
}

export const silentLogger: Logger = createLogger("silent");
