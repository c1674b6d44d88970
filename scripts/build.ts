// Builds the single-file executable: bundles src/main.ts with the platform's sqlite-vec extension embedded.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { apiReferenceBundleFile } from "../src/http/api-reference.ts";
import { RUNTIME_HEADER_LIMIT } from "../src/http/serve.ts";

const ROOT = resolve(import.meta.dir, "..");

/**
 * Worker scripts compiled into the binary next to the main entry, one path per line. Inside the
 * binary each keeps its path relative to src/ (see workerUrl in src/ai/speech/worker-client.ts).
 */
export const EXTRA_ENTRYPOINTS: string[] = [
  "src/ai/speech/builtin-worker.ts",
  "src/ai/embedder/neural-worker.ts",
  "src/features/podcasts/audio/encode-worker.ts",
  "src/features/library/sources/extract/worker.ts",
  "src/features/imports/formats/worker.ts",
];

/** sqlite-vec publishes one npm package per platform; pick the one for the build target. */
export function vec0Package(platform: string, arch: string): { pkg: string; file: string } {
  const os = platform === "win32" ? "windows" : platform;
  const ext = platform === "win32" ? "dll" : platform === "darwin" ? "dylib" : "so";
  return { pkg: `sqlite-vec-${os}-${arch}`, file: `vec0.${ext}` };
}

function vec0Path(platform: string, arch: string): string {
  const { pkg, file } = vec0Package(platform, arch);
  try {
    return createRequire(join(ROOT, "package.json")).resolve(`${pkg}/${file}`);
  } catch {
    throw new Error(
      `${pkg} is not installed, so the binary cannot embed sqlite-vec for ${platform}-${arch}; run \`bun install\` on that platform`,
    );
  }
}

/** The packed browser extensions `bun run build:extension` left in dist/extension/, if it was run. */
export function builtExtensionZips(root = ROOT): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["commonplace-chromium.zip", "commonplace-firefox.zip"]) {
    const path = join(root, "dist", "extension", name);
    if (existsSync(path)) out[name] = path;
  }
  return out;
}

/**
 * The binary's real entry, kept in memory: it embeds the extension and the API reference's browser
 * bundle (Bun stores files imported with type "file" in the executable), hands the extension's
 * bytes to the db client and the bundle's embedded path to /api/docs, then starts main.ts. The
 * packed browser extensions, when built, are embedded the same way for /extension/*.zip.
 */
function entrySource(vec0: string, apiReference: string, main: string, zips: Record<string, string> = {}): string {
  const names = Object.keys(zips);
  return [
    `import vec0 from ${JSON.stringify(vec0)} with { type: "file" };`,
    `import apiReference from ${JSON.stringify(apiReference)} with { type: "file" };`,
    ...names.map((n, i) => `import zip${i} from ${JSON.stringify(zips[n])} with { type: "file" };`),
    `globalThis.__COMMONPLACE_VEC0__ = await Bun.file(vec0).bytes();`,
    `globalThis.__COMMONPLACE_API_REFERENCE__ = apiReference;`,
    `globalThis.__COMMONPLACE_EXTENSION__ = { ${names.map((n, i) => `${JSON.stringify(n)}: zip${i}`).join(", ")} };`,
    main,
    "",
  ].join("\n");
}

export interface BuildOptions {
  outfile: string;
  platform?: string;
  arch?: string;
  /** What the binary runs once the extension is in place, as code in src/ (tests build probes with it). */
  main?: string;
}

export async function build(opts: BuildOptions): Promise<string> {
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  const entry = join(ROOT, "src", "main-compiled.ts");
  const outfile = resolve(opts.outfile);
  const result = await Bun.build({
    entrypoints: [entry, ...EXTRA_ENTRYPOINTS.map((p) => join(ROOT, p))],
    files: {
      [entry]: entrySource(
        vec0Path(platform, arch),
        apiReferenceBundleFile(ROOT),
        opts.main ?? `await import("./main.ts");`,
        builtExtensionZips(),
      ),
    },
    // Bun's own header limit sits above MAX_HEADER_BYTES, so the app's 431 (problem+json) comes first.
    compile: {
      outfile,
      autoloadDotenv: false,
      autoloadBunfig: false,
      execArgv: [`--max-http-header-size=${RUNTIME_HEADER_LIMIT}`],
    },
    target: "bun",
    minify: true,
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("build failed");
  }
  if (!existsSync(outfile)) throw new Error(`build reported success but ${outfile} is missing`);
  return outfile;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outfile: { type: "string", default: "dist/commonplace" } } });
  const started = performance.now();
  const out = await build({ outfile: resolve(ROOT, values.outfile!) });
  console.log(`built ${out} in ${Math.round(performance.now() - started)} ms`);
}
