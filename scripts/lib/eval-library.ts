// Loads a search evaluation set (web articles, PDFs, notes, questions) and saves it into a fresh
// in-memory app through the real API and ingestion: articles and PDFs as saved links served by a
// local server, notes as notes.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { openTestDatabase } from "../../src/db/client.ts";
import { silentLogger } from "../../src/log.ts";
import { createServices } from "../../src/services.ts";
import { buildPdf, type PdfLine } from "../../test/fixtures/pages/pdf-builder.ts";
import { asSqlite } from "../../src/db/client.ts";

export interface Question {
  question: string;
  expected: string;
  answer_hint: string;
}

export interface EvalSet {
  name: string;
  docs: Map<string, { kind: "article" | "pdf" | "note"; body: string }>;
  questions: Question[];
}

function readDir(dir: string): [string, string][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => [f.replace(/\.md$/, ""), readFileSync(join(dir, f), "utf8")]);
}

/** A set folder holds `questions.json` and any of `articles/`, `pdfs/` (Markdown set as PDF pages) and `notes/`. */
export function loadSet(name: string, dir: string): EvalSet {
  const docs: EvalSet["docs"] = new Map();
  for (const [slug, body] of readDir(join(dir, "articles"))) docs.set(slug, { kind: "article", body });
  for (const [slug, body] of readDir(join(dir, "pdfs"))) docs.set(slug, { kind: "pdf", body });
  for (const [slug, body] of readDir(join(dir, "notes"))) docs.set(slug, { kind: "note", body });
  return { name, docs, questions: JSON.parse(readFileSync(join(dir, "questions.json"), "utf8")) as Question[] };
}

/** Wraps words into lines of at most `width` characters, as a PDF page sets them. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Sets Markdown as a PDF: headings in larger type, paragraphs hard-wrapped at 80 characters, 40 lines a page. */
export function markdownPdf(md: string): Uint8Array<ArrayBuffer> {
  const lines: PdfLine[] = [];
  let title = "";
  for (const para of md.split(/\n\s*\n/)) {
    const h = /^(#{1,6})\s+(.*)$/.exec(para.trim());
    if (h) {
      if (h[1] === "#") title ||= h[2]!;
      lines.push({ text: h[2]!, size: h[1] === "#" ? 18 : 14, gap: 30 });
      continue;
    }
    wrap(para, 80).forEach((text, i) => lines.push({ text, size: 11, gap: i === 0 ? 22 : 14 }));
  }
  const pages: PdfLine[][] = [];
  for (let i = 0; i < lines.length; i += 40)
    pages.push(lines.slice(i, i + 40).map((l, j) => (j === 0 ? { ...l, gap: 16 } : l)));
  return buildPdf(pages, { title }) as Uint8Array<ArrayBuffer>;
}

export async function buildLibrary(set: EvalSet) {
  const passthrough = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => (k.startsWith("AI_") || k === "EMBEDDER") && v),
  ) as Record<string, string>;
  // The production default (neural + lexical) unless EMBEDDER=hashed asks for the tiny-machine one.
  passthrough.EMBEDDER ??= "builtin";
  const config = testConfig({ DEFAULT_MONTHLY_CREDITS: "1000000", RATE_LIMIT_PER_MINUTE: "1000000", ...passthrough });
  const db = openTestDatabase();
  const services = createServices({ config, db, logger: silentLogger });
  const app = createApp(services);
  const user = await services.accounts.createUser(
    { email: "eval@example.com", password: "eval-password" },
    { bypassSignupPolicy: true },
  );
  const { key } = await services.keys.create(user.id, "eval");
  const post = async (path: string, body: unknown) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const doc = set.docs.get(new URL(req.url).pathname.slice(1));
      if (!doc || doc.kind === "note") return new Response("not found", { status: 404 });
      if (doc.kind === "pdf")
        return new Response(markdownPdf(doc.body), { headers: { "content-type": "application/pdf" } });
      return new Response(doc.body, { headers: { "content-type": "text/markdown; charset=utf-8" } });
    },
  });
  const slugOf = new Map<string, string>();
  try {
    for (const [slug, doc] of set.docs) {
      const title = /^#\s+(.*)$/m.exec(doc.body)?.[1];
      const r =
        doc.kind === "note"
          ? await post("/api/v1/notes", { content: doc.body, title })
          : await post("/api/v1/sources", { url: `http://127.0.0.1:${server.port}/${slug}` });
      if (r.status !== 201) throw new Error(`saving ${slug} failed: ${r.status} ${JSON.stringify(r.body)}`);
      slugOf.set(r.body.id, slug);
    }
    await services.runner.drain({ timeoutMs: 300_000 });
  } finally {
    await server.stop(true);
  }
  const sources = [...set.docs.values()].filter((d) => d.kind !== "note").length;
  const ready = asSqlite(db)
    .sqlite.query<{ n: number }, []>("SELECT count(*) n FROM sources WHERE status = 'ready'")
    .get()!.n;
  if (ready !== sources) throw new Error(`only ${ready} of ${sources} sources became ready`);
  const chunkText = (chunkId: string) =>
    asSqlite(db).sqlite.query<{ text: string }, [string]>("SELECT text FROM chunks WHERE chunk_id = ?").get(chunkId)
      ?.text;
  return { services, post, slugOf, chunkText, db };
}
