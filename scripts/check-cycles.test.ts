// The feature cycle check: what counts as an import, what is left out, and the repository's own graph.
import { Glob } from "bun";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cycles, featureGraph, fileGraph, fileProblems, problems, webImports } from "./check-cycles.ts";
import { isTestSupport } from "./lib/source-kinds.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function graphOf(files: Record<string, string>, of = featureGraph) {
  const root = mkdtempSync(join(tmpdir(), "cycles-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return of(root);
}

describe("check-cycles", () => {
  test("two files of one folder importing each other's types are a file cycle; a one-way chain is not", async () => {
    const graph = await graphOf(
      {
        "src/db/port.ts": 'import type { PgDb } from "./pg/port.ts";\n',
        "src/db/pg/port.ts": 'import type { Transactor } from "../port.ts";\n',
        "src/db/shared.ts": 'import type { Db } from "./port.ts";\n',
        "src/db/shared.test.ts": 'import { x } from "./shared.ts";\n',
      },
      fileGraph,
    );
    expect(cycles(graph)).toEqual([["src/db/pg/port.ts", "src/db/port.ts"]]);
    expect(fileProblems(graph)[0]).toBe("cycle between files: src/db/pg/port.ts, src/db/port.ts");
  });

  test("the repository's files form no cycle", async () => {
    expect(fileProblems(await fileGraph())).toEqual([]);
  });

  test("a type-only import over several lines closes a cycle", async () => {
    const graph = await graphOf({
      "src/features/a/service.ts": 'import { b } from "../b/service.ts";\n',
      "src/features/b/service.ts": 'import type {\n  A,\n} from "../a/service.ts";\n',
    });
    expect(cycles(graph)).toEqual([["a", "b"]]);
    expect(problems(graph, [])[0]).toBe("cycle between features: a, b");
  });

  test("re-exports and nested folders count; tests, test helpers and comments do not", async () => {
    const graph = await graphOf({
      "src/features/a/deep/x.ts": 'export { c } from "../../c/index.ts";\n',
      "src/features/c/index.ts": '// import { a } from "../a/deep/x.ts";\nexport const c = 1;\n',
      "src/features/c/c.test.ts": 'import { a } from "../a/deep/x.ts";\n',
      "src/features/c/testing.ts": 'import { a } from "../a/deep/x.ts";\n',
    });
    expect([...(graph.get("a")?.keys() ?? [])]).toEqual(["c"]);
    expect(graph.get("c")).toBeUndefined();
    expect(cycles(graph)).toEqual([]);
  });

  test("a known cycle passes, one that grew or went away does not", async () => {
    const graph = await graphOf({
      "src/features/a/x.ts": 'import "../b/x.ts";\n',
      "src/features/b/x.ts": 'import "../a/x.ts";\nimport "../c/x.ts";\n',
      "src/features/c/x.ts": 'const m = await import("../b/x.ts");\n',
    });
    expect(problems(graph, [["a", "b", "c"]])).toEqual([]);
    expect(problems(graph, [["a", "b"]])).toContain("cycle between features: a, b, c");
    expect(
      problems(graph, [
        ["a", "b", "c"],
        ["d", "e"],
      ]),
    ).toEqual(["known cycle d, e is gone: remove it from KNOWN_CYCLES in scripts/check-cycles.ts"]);
  });

  test("a feature importing the web app fails; its tests, test helpers and the web app itself do not", async () => {
    const root = mkdtempSync(join(tmpdir(), "cycles-"));
    dirs.push(root);
    const files: Record<string, string> = {
      "src/features/a/routes.ts":
        'import { page } from "../../web/pages.ts";\nimport { html } from "../../http/html/html.ts";\n',
      "src/features/a/a.test.ts": 'import { testBrowser } from "../../web/test-client.ts";\n',
      "src/features/a/test-flow.ts": 'import { testBrowser } from "../../web/test-client.ts";\n',
      "src/web/pages.ts": 'import { a } from "../features/a/routes.ts";\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    expect(await webImports(root)).toEqual([
      "src/features/a/routes.ts imports ../../web/pages.ts: a feature may not import the web app",
    ]);
  });

  test("folders below a feature's first folder are parts of it: a cycle between them is no cycle", async () => {
    const graph = await graphOf({
      "src/features/library/sources/x.ts": 'import "../notes/x.ts";\n',
      "src/features/library/notes/x.ts": 'import "../sources/x.ts";\nimport "../../search/x.ts";\n',
      "src/features/search/x.ts": 'import type { R } from "../library/reader.ts";\n',
    });
    expect(graph.get("library")?.has("search")).toBe(true);
    expect(cycles(graph)).toEqual([["library", "search"]]);
  });

  test("the library is one feature: nothing outside it names its repositories", async () => {
    const graph = await featureGraph();
    for (const f of ["sources", "notebooks", "notes"]) expect(graph.has(f)).toBe(false);
    const outside: string[] = [];
    for await (const path of new Glob("src/features/*/**/*.ts").scan(".")) {
      if (path.startsWith("src/features/library/") || path.endsWith(".test.ts") || isTestSupport(path)) continue;
      if (/library\/(sources|notebooks|notes)\/repo\.ts/.test(await Bun.file(path).text())) outside.push(path);
    }
    expect(outside).toEqual([]);
  });

  test("workflows depends on none of feeds, mail, podcasts, webhooks, and the repository passes", async () => {
    const graph = await featureGraph();
    const fromWorkflows = [...(graph.get("workflows")?.keys() ?? [])];
    for (const f of ["feeds", "mail", "podcasts", "webhooks"]) expect(fromWorkflows).not.toContain(f);
    expect(graph.get("webhooks")?.has("workflows") ?? false).toBe(false);
    expect(problems(graph)).toEqual([]);
    expect(await webImports()).toEqual([]);
  });
});
