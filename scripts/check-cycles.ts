// Checks that features do not depend on each other in a circle: builds the import graph of
// src/features/* at the feature-folder level (type-only imports count) and fails on any cycle.
// Also checks that no feature imports the web app (src/web): the web app is a client of the services,
// and that no two files of src/ import each other in a circle (fileGraph: every file, both engines' code).
import { Glob } from "bun";
import { dirname, join, relative } from "node:path";
import { isTestSupport } from "./lib/source-kinds.ts";

const ROOT = "src/features";
const WEB = "src/web";

/**
 * Cycles that predate this check, each exactly as found (see docs/decisions.md, "Data layer — cycles").
 * Any other cycle fails, and so does a feature joining one of these; a listed one that is gone fails
 * too, so the list only shrinks.
 */
export const KNOWN_CYCLES: readonly (readonly string[])[] = [["accounts", "credits"]];

/** `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")`, over several lines too. */
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^;"']*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The feature a path under src/features belongs to, or null (feature.ts, outside src/features). */
function featureOf(path: string): string | null {
  const rel = relative(ROOT, path);
  if (rel.startsWith("..")) return null;
  const parts = rel.split("/");
  return parts.length > 1 ? parts[0]! : null;
}

/** Each relative import of the app's files under `dir`: the importing file, the specifier and its target. */
async function* importsUnder(
  root: string,
  dir: string,
): AsyncGenerator<{ path: string; spec: string; target: string }> {
  for await (const path of new Glob(`${dir}/**/*.ts`).scan(root)) {
    // Tests and their helpers are not part of the app: they may reach into other features' helpers.
    if (path.endsWith(".test.ts") || isTestSupport(path)) continue;
    const text = (await Bun.file(join(root, path)).text()).replace(/^\s*\/\/.*$/gm, "");
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (spec.startsWith(".")) yield { path, spec, target: join(dirname(path), spec) };
    }
  }
}

/** Edges file → file over all of src/ (type-only imports and re-exports count), each with its specifier. */
export async function fileGraph(root = "."): Promise<Map<string, Map<string, string>>> {
  const graph = new Map<string, Map<string, string>>();
  for await (const { path, spec, target } of importsUnder(root, "src")) {
    const edges = graph.get(path) ?? new Map<string, string>();
    if (!edges.has(target)) edges.set(target, `${path} imports ${spec}`);
    graph.set(path, edges);
  }
  return graph;
}

/** Each relative import of the app's files under src/features. */
function featureImports(root: string) {
  return importsUnder(root, ROOT);
}

/** Edges feature → feature, each with one import that proves it (file and specifier). */
export async function featureGraph(root = "."): Promise<Map<string, Map<string, string>>> {
  const graph = new Map<string, Map<string, string>>();
  for await (const { path, spec, target } of featureImports(root)) {
    const from = featureOf(path);
    const to = featureOf(target);
    if (!from || !to || to === from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    if (!edges.has(to)) edges.set(to, `${path} imports ${spec}`);
    graph.set(from, edges);
  }
  return graph;
}

/** Imports from a feature into the web app, which must go the other way (the web app calls the services). */
export async function webImports(root = "."): Promise<string[]> {
  const out: string[] = [];
  for await (const { path, spec, target } of featureImports(root))
    if (!relative(WEB, target).startsWith(".."))
      out.push(`${path} imports ${spec}: a feature may not import the web app`);
  return out;
}

/** Every strongly connected component with more than one node (Tarjan), each sorted. */
export function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** What is wrong with the graph: cycles that are not known, and known ones that are gone. */
export function problems(graph: Map<string, Map<string, string>>, known = KNOWN_CYCLES): string[] {
  const key = (c: readonly string[]) => [...c].sort().join(", ");
  const knownKeys = new Set(known.map(key));
  const found = cycles(graph);
  const out: string[] = [];
  for (const component of found) {
    if (knownKeys.has(key(component))) continue;
    out.push(`cycle between features: ${component.join(", ")}`);
    for (const from of component)
      for (const [to, why] of graph.get(from) ?? []) if (component.includes(to)) out.push(`  ${from} → ${to}: ${why}`);
  }
  const foundKeys = new Set(found.map(key));
  for (const k of knownKeys)
    if (!foundKeys.has(k)) out.push(`known cycle ${k} is gone: remove it from KNOWN_CYCLES in scripts/check-cycles.ts`);
  return out;
}

/** Files of src/ that import each other in a circle: none is allowed (a shared piece moves to a file of its own). */
export function fileProblems(graph: Map<string, Map<string, string>>): string[] {
  const out: string[] = [];
  for (const component of cycles(graph)) {
    out.push(`cycle between files: ${component.join(", ")}`);
    for (const from of component)
      for (const [to, why] of graph.get(from) ?? []) if (component.includes(to)) out.push(`  ${why}`);
  }
  return out;
}

if (import.meta.main) {
  const graph = await featureGraph();
  const found = [...problems(graph), ...fileProblems(await fileGraph())];
  const web = await webImports();
  if (found.length > 0) {
    console.error(found.join("\n"));
    console.error("\nA feature may depend on another only one way: declare a port and let src/services.ts wire it.");
  }
  if (web.length > 0) {
    console.error(web.join("\n"));
    console.error("\nThe web app is a client of the features: shared HTML helpers belong in src/http/html/.");
  }
  if (found.length > 0 || web.length > 0) process.exit(1);
  console.log(
    `cycles: none between features beyond the ${KNOWN_CYCLES.length} known ones, none between files; no feature imports the web app`,
  );
}
