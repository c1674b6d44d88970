// Checks the layering rule: only repositories and src/db touch the database. Outside them no
// file in src/ may import bun:sqlite or drizzle-orm (not even types), a table from src/db/schema (row types, as
// `import type`, are fine), nor reach a connection through `.sqlite` or `.orm`.
import { Glob } from "bun";
import { isTestSupport } from "./lib/source-kinds.ts";

const isRepository = (path: string) =>
  path.startsWith("src/db/") || /(^|\/)(repo|[\w-]+-repo)\.ts$/.test(path) || /\/repo\/[\w-]+\.ts$/.test(path);

const problems: string[] = [];
for await (const path of new Glob("src/**/*.ts").scan(".")) {
  if (path.endsWith(".test.ts") || isRepository(path) || isTestSupport(path)) continue;
  const text = await Bun.file(path).text();
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const where = `${path}:${i + 1}`;
    if (/^import\s[^;]*from\s+"(bun:sqlite|drizzle-orm[^"]*)"/.test(line))
      problems.push(`${where} imports ${line.match(/"([^"]+)"/)![1]}`);
    if (/^import\s+(?!type\b)[^;]*from\s+"[./]*\/?db\/schema[^"]*"/.test(line))
      problems.push(`${where} imports tables from db/schema`);
    if (
      /^import\s+(?!type\b)[^;]*from\s+"[./]*\/?db\/(client|tx)\.ts"/.test(line) &&
      !/openDatabase|openTestDatabase|openConfiguredDatabase/.test(line)
    )
      problems.push(`${where} imports db internals`);
    if (/\.(sqlite|orm)\b(?!\s*:)/.test(line) && !/^\s*(\/\/|\*)/.test(line))
      problems.push(`${where} reaches a connection: ${line.trim()}`);
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
