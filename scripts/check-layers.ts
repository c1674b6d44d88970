// Checks the layering rule: only repositories and src/db touch the database. Outside them no
// file in src/ may import bun:sqlite, drizzle-orm or the PostgreSQL client (not even types), a table from
// src/db/schema (row types, as `import type`, are fine), nor reach a connection through `.sqlite`, `.orm`
// or `.shared`. Nor may it ask which engine it runs on (`.pg`, `.engine`, `byEngine`): the engine is
// chosen once, in src/stores.ts (which may only call byEngine).
import { Glob } from "bun";
import { isTestSupport } from "./lib/source-kinds.ts";

const isRepository = (path: string) =>
  path.startsWith("src/db/") || /(^|\/)(repo|[\w-]+-repo)\.ts$/.test(path) || /\/repo\/[\w-]+\.ts$/.test(path);

/** The one file outside src/db that chooses an engine-specific piece (through byEngine, never `.engine`). */
const ENGINE_CHOICE = "src/stores.ts";

const problems: string[] = [];
for await (const path of new Glob("src/**/*.ts").scan(".")) {
  if (path.endsWith(".test.ts") || isRepository(path) || isTestSupport(path)) continue;
  const text = await Bun.file(path).text();
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const where = `${path}:${i + 1}`;
    if (/^import\s[^;]*from\s+"(bun:sqlite|drizzle-orm[^"]*|postgres)"/.test(line))
      problems.push(`${where} imports ${line.match(/"([^"]+)"/)![1]}`);
    if (/^import\s+(?!type\b)[^;]*from\s+"[./]*\/?db\/schema[^"]*"/.test(line))
      problems.push(`${where} imports tables from db/schema`);
    if (
      /^import\s+(?!type\b)[^;]*from\s+"[./]*\/?db\/(client|tx)\.ts"/.test(line) &&
      !/openDatabase|openTestDatabase|openConfiguredDatabase/.test(line)
    )
      problems.push(`${where} imports db internals`);
    const code = !/^\s*(\/\/|\*)/.test(line);
    if ((/\.(sqlite|orm)\b(?!\s*:)/.test(line) || /\bdb\.shared\b/.test(line)) && code)
      problems.push(`${where} reaches a connection: ${line.trim()}`);
    if (/\.(pg|engine)\b(?!\s*[:(])/.test(line) && code)
      problems.push(`${where} asks which engine it runs on: ${line.trim()}`);
    if (/\bbyEngine\b/.test(line) && code && path !== ENGINE_CHOICE)
      problems.push(`${where} chooses an engine (only ${ENGINE_CHOICE} does): ${line.trim()}`);
  });
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(
    `\n${problems.length} layering problem(s): SQL belongs in repositories (repo.ts, *-repo.ts) or src/db.`,
  );
  process.exit(1);
}
console.log("layers: only repositories and src/db reach the database");
