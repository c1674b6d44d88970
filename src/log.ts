// Structured JSON logs, one line per event, buffered so logging never dominates a request. Every
// line passes through redactSecrets, so a token in a path or an error message never reaches a log.
import { redactSecrets } from "./redact.ts";
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
  // Many lines share a millisecond under load; format the timestamp once per millisecond.
  let lastMs = 0;
  let lastIso = "";
  const time = () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
  const log = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    const rest = fields ? JSON.stringify(fields) : "{}";
    buffer.push(
      redactSecrets(
        `{"time":"${time()}","level":"${l}","msg":${JSON.stringify(msg)}${rest.length > 2 ? `,${rest.slice(1)}` : "}"}\n`,
      ),
    );
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
