// Web routes of the browser extension: connecting by approval (a named API key handed over in the
// URL fragment of /extension/connected, never in a query string or a log line), the packed extension's
// downloads, and Settings → Browser extension.
import { Elysia } from "elysia";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { contentSecurityPolicy } from "../http/html/assets.ts";
import { pageResponse } from "../http/html/html.ts";
import type { WebDeps } from "./deps.ts";
import { newCsrfToken } from "./csrf.ts";
import {
  CONNECTED_SCRIPT,
  connectPage,
  connectedPage,
  EXTENSION_KEY_PREFIX,
  extensionLabel,
  extensionSettingsPage,
} from "./extension-pages.ts";
import { formField, redirect, signInFirst } from "./http.ts";
import type { WebHelpers } from "./oauth-routes.ts";

export const EXTENSION_ZIPS = ["commonplace-chromium.zip", "commonplace-firefox.zip"] as const;
type ZipName = (typeof EXTENSION_ZIPS)[number];

/**
 * A packed extension: from the build directory (`bun run build:extension`), else the copy a compiled
 * binary carries (scripts/build.ts embeds the zips that existed when it was built).
 */
async function extensionZip(dir: string, name: ZipName): Promise<Blob | null> {
  const built = Bun.file(join(dir, name));
  if (await built.exists()) return built;
  const embedded = (globalThis as { __COMMONPLACE_EXTENSION__?: Partial<Record<ZipName, string>> })
    .__COMMONPLACE_EXTENSION__?.[name];
  if (!embedded) return null;
  const file = Bun.file(embedded);
  return (await file.exists()) ? file : null;
}

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
/** The connected page's one inline script is admitted by its hash, on that page only. */
const connectedCsp = () => contentSecurityPolicy().replace("script-src ", `script-src ${sha256(CONNECTED_SCRIPT)} `);

export function extensionWebRoutes(s: Pick<WebDeps, "config" | "web">, h: WebHelpers) {
  const dir = s.config.capture.extensionDistDir;
  const connectPath = (label: string) => `/extension/connect?client=${encodeURIComponent(label)}`;

  const zipRoute = (name: ZipName) =>
    h.page(async () => {
      const file = await extensionZip(dir, name);
      if (!file)
        throw new AppError(
          "not_found",
          "The browser extension has not been built on this server. Run bun run build:extension where Commonplace is installed, then try again.",
        );
      return new Response(file, {
        headers: {
          "content-type": "application/zip",
          "content-disposition": `attachment; filename="${name}"`,
          "cache-control": "no-cache",
        },
      });
    });

  return (
    new Elysia()
      // GET /extension/connect?client=… — the tab a connecting extension opens.
      .get(
        "/extension/connect",
        h.page(async ({ request, query }) => {
          const label = extensionLabel(query.client);
          const me = await h.signedIn(request);
          if (!me) return signInFirst(connectPath(label));
          return pageResponse(connectPage({ user: h.layoutUser(me), label, formId: newCsrfToken() }));
        }),
      )
      // POST /extension/connect — Approve makes the key; either way the tab goes to /extension/connected.
      .post(
        "/extension/connect",
        h.page(async ({ request, body }) => {
          const label = extensionLabel(formField(body, "client"));
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(connectPath(label));
          if (formField(body, "decision") !== "approve") return redirect("/extension/connected#error=denied");
          const made = await s.web.createKey(me.actor, `${EXTENSION_KEY_PREFIX}${label}`, formField(body, "form_id"));
          if (made === "already_used")
            throw new AppError(
              "conflict",
              "This approval was already sent, so no second key was made. Start connecting again from the extension.",
            );
          // Only in the fragment: browsers never send it to a server, and it stays out of every log.
          return redirect(`/extension/connected#key=${made.key}`);
        }),
      )
      // GET /extension/connected
      .get(
        "/extension/connected",
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          return pageResponse(connectedPage({ user: me ? h.layoutUser(me) : null }), {
            headers: { "content-security-policy": connectedCsp() },
          });
        }),
      )
      // GET /extension/commonplace-chromium.zip, /extension/commonplace-firefox.zip
      .get("/extension/commonplace-chromium.zip", zipRoute("commonplace-chromium.zip"))
      .get("/extension/commonplace-firefox.zip", zipRoute("commonplace-firefox.zip"))
      // GET /settings/extension
      .get(
        "/settings/extension",
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst("/settings/extension");
          const [chromium, firefox] = await Promise.all(
            EXTENSION_ZIPS.map(async (name) => ({ name, size: (await extensionZip(dir, name))?.size ?? null })),
          );
          return pageResponse(
            extensionSettingsPage({
              user: h.layoutUser(me),
              chromium: chromium!,
              firefox: firefox!,
              baseUrl: s.config.baseUrl,
            }),
          );
        }),
      )
  );
}
