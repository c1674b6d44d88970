// Reads the outbox folder for the web app: the messages a user's workflows wrote while no SMTP
// server was configured. A file's name starts with the run id that sent it, which names its owner.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { OUTBOX_DIR } from "./outbox.ts";

export interface OutboxMessage {
  name: string;
  subject: string;
  to: string;
  date: string;
  size: number;
}

const FILE_RE = /^(run_[0-9A-Z]{26})_[A-Za-z0-9_-]*\.eml$/;

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) in a header value. */
export function decodeHeader(value: string): string {
  // Whitespace between two encoded words is not part of the text (RFC 2047 §6.2).
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=(?:\s+(?==\?))?/g,
    (_m, charset: string, enc: string, text: string) => {
      try {
        const bytes =
          enc.toUpperCase() === "B"
            ? Buffer.from(text, "base64")
            : Buffer.from(
                text
                  .replace(/_/g, " ")
                  .replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
                "latin1",
              );
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return text;
      }
    },
  );
}

/** The headers of a message (folded lines joined), lower-cased names. */
export function parseHeaders(eml: string): Record<string, string> {
  const end = eml.search(/\r?\n\r?\n/);
  const head = (end === -1 ? eml : eml.slice(0, end)).replace(/\r?\n[ \t]+/g, " ");
  const out: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] ??= decodeHeader(line.slice(i + 1).trim());
  }
  return out;
}

/** Which of these runs belong to the user: the workflows feature's runs repository answers. */
export interface RunOwnership {
  ownedIds(userId: string, runIds: string[]): Promise<string[]>;
}

export function createOutboxReader(deps: { runs: RunOwnership; dataDir: string }) {
  const dir = join(deps.dataDir, OUTBOX_DIR);

  async function ownedNames(userId: string): Promise<string[]> {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => FILE_RE.test(n));
    } catch {
      return [];
    }
    const runIds = [...new Set(names.map((n) => FILE_RE.exec(n)![1]!))];
    if (runIds.length === 0) return [];
    const owned = new Set(await deps.runs.ownedIds(userId, runIds));
    return names.filter((n) => owned.has(FILE_RE.exec(n)![1]!));
  }

  return {
    async list(userId: string): Promise<OutboxMessage[]> {
      const out: OutboxMessage[] = [];
      for (const name of await ownedNames(userId)) {
        const path = join(dir, name);
        const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
        const h = parseHeaders(text);
        out.push({
          name,
          subject: h.subject ?? "",
          to: h.to ?? "",
          date: h.date ? new Date(h.date).toISOString() : info.mtime.toISOString(),
          size: info.size,
        });
      }
      return out.sort((a, b) => (a.date < b.date ? 1 : -1));
    },
    /** The raw message, or undefined when it is not this user's (or does not exist). */
    async read(userId: string, name: string): Promise<string | undefined> {
      if (!FILE_RE.test(name)) return undefined;
      if (!(await ownedNames(userId)).includes(name)) return undefined;
      return readFile(join(dir, name), "utf8");
    },
  };
}
export type OutboxReader = ReturnType<typeof createOutboxReader>;
