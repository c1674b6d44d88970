// bun run build:extension — bundles the browser extension (extension/) for Chromium and Firefox into
// dist/extension/{chromium,firefox}/ and packs each into dist/extension/commonplace-<browser>.zip.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import JSZip from "jszip";
import { ICON_SIZES, manifestFor, type Target } from "../extension/manifest.ts";
import { iconPng } from "./lib/png.ts";

const ROOT = resolve(import.meta.dir, "..");
const TARGETS: Target[] = ["chromium", "firefox"];
const ENTRIES = ["background", "popup", "options"].map((n) => join(ROOT, "extension/src", `${n}.ts`));
// Fixed file times, so the same sources give the same zip.
const ZIP_DATE = new Date("2025-01-01T00:00:00Z");

export interface BuildOptions {
  /** Default dist/extension. */
  outDir?: string;
  /**
   * Host permissions granted at install instead of asked for at connect time. Browser tests use it
   * for their loopback server, since headless Chromium cannot answer the permission prompt.
   */
  hostPermissions?: string[];
  zip?: boolean;
}

export interface BuildResult {
  dirs: Record<Target, string>;
  zips: Partial<Record<Target, string>>;
}

export async function buildExtension(o: BuildOptions = {}): Promise<BuildResult> {
  const outDir = o.outDir ?? join(ROOT, "dist/extension");
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const bundle = mkdtempSync(join(tmpdir(), "cp-extension-"));
  try {
    const built = await Bun.build({
      entrypoints: ENTRIES,
      outdir: bundle,
      target: "browser",
      // Classic scripts: Firefox loads background.scripts without module support, and nothing is shared
      // between the three bundles at run time anyway.
      format: "iife",
      naming: "[name].js",
      minify: false,
    });
    if (!built.success) throw new AggregateError(built.logs, "bundling the extension failed");

    const result: BuildResult = { dirs: {} as Record<Target, string>, zips: {} };
    for (const target of TARGETS) {
      const dir = join(outDir, target);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(join(dir, "icons"), { recursive: true });
      cpSync(bundle, dir, { recursive: true });
      cpSync(join(ROOT, "extension/static"), dir, { recursive: true });
      for (const size of ICON_SIZES) writeFileSync(join(dir, `icons/icon-${size}.png`), iconPng(size));
      const manifest = manifestFor(target, { version, hostPermissions: o.hostPermissions });
      writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      result.dirs[target] = dir;
      if (o.zip !== false) {
        const zipPath = join(outDir, `commonplace-${target}.zip`);
        writeFileSync(zipPath, await zipDir(dir));
        result.zips[target] = zipPath;
      }
    }
    return result;
  } finally {
    rmSync(bundle, { recursive: true, force: true });
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function zipDir(dir: string): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const file of filesUnder(dir)) zip.file(file, readFileSync(join(dir, file)), { date: ZIP_DATE });
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 9 } });
}

/** `--if-missing` (what `bun run start` passes): build only when a zip is not there yet. */
const present = () => TARGETS.every((t) => existsSync(join(ROOT, `dist/extension/commonplace-${t}.zip`)));

if (import.meta.main && !(process.argv.includes("--if-missing") && present())) {
  const { dirs, zips } = await buildExtension();
  for (const target of TARGETS)
    console.log(`${target}: ${relative(ROOT, dirs[target])}/ and ${relative(ROOT, zips[target]!)}`);
}
