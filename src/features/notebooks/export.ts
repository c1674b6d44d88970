// Markdown export of a notebook: a zip (jszip, streamed out) that opens as an Obsidian vault:
// index.md, sources/<slug>.md and notes/<slug>.md, each with YAML front matter.
import JSZip from "jszip";
import type { NoteRow, SourceRow } from "../../db/schema/index.ts";
import type { NotebookWithCounts } from "./repo.ts";

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** A file-name slug safe on every OS: ASCII, no reserved names, no trailing dots, ≤ 80 chars. */
export function slugify(text: string, fallback: string): string {
  const base = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  const slug = base || fallback;
  return WINDOWS_RESERVED.test(slug) ? `${slug}-file` : slug;
}

export function uniqueSlugger() {
  const used = new Set<string>();
  return (text: string, fallback: string) => {
    const base = slugify(text, fallback);
    let slug = base;
    for (let i = 2; used.has(slug); i++) slug = `${base}-${i}`;
    used.add(slug);
    return slug;
  };
}

/** YAML front matter; values are JSON strings, which YAML reads as double-quoted scalars. */
export function frontMatter(fields: Record<string, string | number | null | undefined | string[]>): string {
  const lines = ["---"];
  for (const [k, v] of Object.entries(fields)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) {
      lines.push(`${k}:`);
      for (const item of v) lines.push(`  - ${JSON.stringify(item)}`);
    } else lines.push(`${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
  }
  lines.push("---", "");
  return lines.join("\n");
}

const mdLinkText = (s: string) => s.replace(/([\\[\]])/g, "\\$1");

export function buildNotebookZip(nb: NotebookWithCounts, sources: SourceRow[], notes: NoteRow[]): JSZip {
  const zip = new JSZip();
  const slug = uniqueSlugger();
  const index: string[] = [frontMatter({ title: nb.name, exported_at: new Date().toISOString() }), `# ${nb.name}`, ""];
  if (nb.description) index.push(nb.description, "");

  index.push("## Sources", "");
  if (sources.length === 0) index.push("_No sources._");
  for (const s of sources) {
    const title = s.title || s.url;
    const name = `sources/${slug(title, s.id.toLowerCase())}.md`;
    const body = s.content ?? (s.status === "failed" ? `_This source could not be fetched: ${s.error}._` : "_Not fetched yet._");
    zip.file(
      name,
      frontMatter({
        title,
        url: s.url,
        author: s.byline,
        site: s.siteName,
        saved_at: s.createdAt,
        published_at: s.publishedAt,
        status: s.status,
        id: s.id,
      }) + `# ${title}\n\n${body}\n`,
    );
    index.push(`- [${mdLinkText(title)}](${encodeURI(name)})`);
  }

  index.push("", "## Notes", "");
  if (notes.length === 0) index.push("_No notes._");
  const noteSlug = uniqueSlugger();
  for (const n of notes) {
    const title = n.title || n.content.split("\n").find((l) => l.trim())?.replace(/^#+\s*/, "").slice(0, 80) || "Untitled note";
    const name = `notes/${noteSlug(title, n.id.toLowerCase())}.md`;
    zip.file(name, frontMatter({ title, created_at: n.createdAt, updated_at: n.updatedAt, id: n.id }) + `${n.content}\n`);
    index.push(`- [${mdLinkText(title)}](${encodeURI(name)})`);
  }
  zip.file("index.md", index.join("\n") + "\n");
  return zip;
}

/** Streams the zip as it is compressed instead of building it whole in memory first. */
export function zipStream(zip: JSZip): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const stream = zip.generateInternalStream({ type: "uint8array", streamFiles: true, compression: "DEFLATE", compressionOptions: { level: 6 } });
      stream
        .on("data", (chunk: Uint8Array) => controller.enqueue(chunk))
        .on("error", (e: Error) => controller.error(e))
        .on("end", () => controller.close())
        .resume();
    },
  });
}

/** RFC 6266 Content-Disposition with an ASCII fallback and a UTF-8 filename*. */
export function contentDisposition(filename: string): string {
  const ascii = filename.normalize("NFKD").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
