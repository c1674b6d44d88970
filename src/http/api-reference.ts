// GET /api/docs: the interactive API reference (Scalar), served entirely by this app. The browser
// bundle comes from the pinned @scalar/api-reference package (embedded in the compiled binary by
// scripts/build.ts), so the page works offline and loads nothing from third-party hosts.
import { dirname, join } from "node:path";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";

export const DOCS_PATH = "/api/docs";
export const ASSETS_PATH = `${DOCS_PATH}/assets`;

/** Where the standalone browser bundle lives in node_modules (the package does not export it). */
export function apiReferenceBundleFile(fromDir: string): string {
  return join(dirname(Bun.resolveSync("@scalar/api-reference", fromDir)), "browser", "standalone.js");
}

function bundleFile(): string {
  const embedded = (globalThis as { __COMMONPLACE_API_REFERENCE__?: string }).__COMMONPLACE_API_REFERENCE__;
  return embedded ?? apiReferenceBundleFile(import.meta.dir);
}

interface Bundle {
  /** Content-addressed file name, so the asset can be cached forever. */
  name: string;
  etag: string;
  raw: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
}

let bundle: Promise<Bundle> | undefined;

/** Read and compressed once, on the first request for the reference (not at start: most servers never show it). */
function loadBundle(): Promise<Bundle> {
  bundle ??= (async () => {
    const raw = await Bun.file(bundleFile()).bytes();
    const hash = new Bun.CryptoHasher("sha256").update(raw).digest("hex").slice(0, 16);
    // A stream compresses in short slices (~20 ms) instead of one ~180 ms block of the event loop.
    const gzip = new Uint8Array(
      await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
    );
    return { name: `api-reference.${hash}.js`, etag: `"${hash}"`, raw, gzip };
  })();
  return bundle;
}

/**
 * Scalar's options that reach its own services are turned off: fonts come from the system, no
 * telemetry, no AI agent or MCP panel, no button that opens the document in Scalar's hosted client,
 * and no request proxy (requests sent from the page go straight to this server).
 */
export const SCALAR_CONFIGURATION = {
  url: "/api/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  proxyUrl: "",
  showDeveloperTools: "never",
  documentDownloadType: "json",
  hideClientButton: true,
  persistAuth: false,
};

/** The browser enforces "nothing from elsewhere": only this server, by its address or by BASE_URL. */
export function apiReferenceCsp(baseUrl: string): string {
  const base = new URL(baseUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Scalar injects its stylesheet and sets inline styles at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // "Send" in the reference calls the API at the document's server, BASE_URL.
    `connect-src 'self' ${base}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const attr = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function apiReferencePage(assetName: string, title: string): string {
  const config = attr(JSON.stringify(SCALAR_CONFIGURATION));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${attr(title)}</title>
</head>
<body>
<noscript><p>The API reference needs JavaScript. The OpenAPI document is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
<div id="api-reference" data-configuration="${config}"></div>
<script src="${ASSETS_PATH}/${assetName}"></script>
</body>
</html>
`;
}

export function apiReferenceRoutes(opts: { title: string; baseUrl: string }) {
  const csp = apiReferenceCsp(opts.baseUrl);
  return (
    new Elysia({ name: "api-reference" })
      // GET /api/docs
      .get(
        DOCS_PATH,
        async () => {
          const b = await loadBundle();
          return new Response(apiReferencePage(b.name, opts.title), {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "content-security-policy": csp,
              "x-content-type-options": "nosniff",
              "referrer-policy": "no-referrer",
              "cache-control": "no-cache",
            },
          });
        },
        { detail: { hide: true } },
      )
      // GET /api/docs/assets/{name}: only the current bundle's name exists.
      .get(
        `${ASSETS_PATH}/:name`,
        async ({ params, request }) => {
          const b = await loadBundle();
          if (params.name !== b.name)
            throw new AppError("not_found", `No asset ${params.name} (the reference page names the current one)`);
          const headers: Record<string, string> = {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "public, max-age=31536000, immutable",
            etag: b.etag,
            vary: "accept-encoding",
            "x-content-type-options": "nosniff",
          };
          if (request.headers.get("if-none-match") === b.etag) return new Response(null, { status: 304, headers });
          const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
          if (gzip) headers["content-encoding"] = "gzip";
          return new Response(gzip ? b.gzip : b.raw, { headers });
        },
        { detail: { hide: true } },
      )
  );
}
