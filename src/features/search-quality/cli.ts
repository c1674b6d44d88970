// `bun run cli search-quality`: the options, checked before the database opens, and the report as a
// plain-text table.
import { DEFAULT_SAMPLE, MAX_SAMPLE, MAX_SEED, MIN_READY_SOURCES, type QualityReport } from "./schema.ts";
import { QUERY_KINDS } from "./queries.ts";

/** --sample and --seed as numbers (a new random seed when none is given); bad values are usage errors. */
export function qualityOptions(
  opts: Record<string, string>,
  usage: (message: string) => Error,
): { sample: number; seed: number } {
  const num = (name: string, min: number, max: number, fallback: () => number) => {
    const raw = opts[name];
    if (raw === undefined) return fallback();
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw usage(`--${name} must be a whole number from ${min} to ${max}`);
    return Number(raw);
  };
  return {
    sample: num("sample", MIN_READY_SOURCES, MAX_SAMPLE, () => DEFAULT_SAMPLE),
    seed: num("seed", 0, MAX_SEED, () => Math.floor(Math.random() * MAX_SEED)),
  };
}

const pct = (x: number | null) => (x === null ? "-" : x.toFixed(3));
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The report as lines: what was measured, then one row per mode with recall overall and per kind. */
export function formatQualityReport(email: string, r: QualityReport): string[] {
  const head = ["mode", "recall@1", "recall@5", ...QUERY_KINDS.flatMap((k) => [`${k}@1`, `${k}@5`]), "failed"];
  const rows = r.modes.map((m) => [
    m.mode,
    pct(m.recall_at_1),
    pct(m.recall_at_5),
    ...QUERY_KINDS.flatMap((k) => {
      const x = m.kinds.find((y) => y.kind === k)!;
      return [pct(x.recall_at_1), pct(x.recall_at_5)];
    }),
    String(m.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const embedded =
    r.embedded === r.sampled
      ? "all sampled sources embedded"
      : `${r.embedded} of ${r.sampled} sampled sources embedded`;
  const lines = [
    `Search quality of ${email}'s library: ${r.sampled} of ${r.ready_sources} ready sources (seed ${r.seed}), ${r.queries.total} ${r.queries.total === 1 ? "query" : "queries"} (${count(r.queries.title, "title")}, ${count(r.queries.heading, "heading")}, ${count(r.queries.paraphrase, "paraphrase")}), ${r.duration_ms} ms`,
    `Embedding model: ${r.embedder ?? "none yet"}${r.configured_embedder !== r.embedder ? ` (re-embedding with ${r.configured_embedder})` : ""}; ${embedded}`,
    "",
    line(head),
    ...rows.map(line),
  ];
  for (const m of r.modes) if (m.error) lines.push(`${m.mode}: ${m.errors} searches failed: ${m.error}`);
  if (r.misses.length) {
    lines.push("", "Missed by hybrid search (not in its top five):");
    for (const x of r.misses) lines.push(`  ${x.kind}: "${x.query}" (${x.title ?? x.source_id})`);
  }
  return lines;
}
