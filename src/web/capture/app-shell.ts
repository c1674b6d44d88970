// The installable web app: the manifest (with the Web Share Target that sends shared links to /share),
// the PNG icons, and a service worker that keeps only the app shell — never a page or an API answer,
// which carry a user's data.
import { Elysia } from "elysia";
import { LIVE_SCRIPT_PATH } from "../../http/html/live-script.ts";
import { FAVICON_SVG } from "../favicon.ts";
import { iconPng, ICONS } from "./icons.ts";

/** The light theme's page and header colours (STYLE's --bg and --card), and the dark header's. */
export const THEME = { light: "#ffffff", dark: "#1d2026", background: "#fbfbfa" };

export const MANIFEST = {
  id: "/library",
  name: "Commonplace",
  short_name: "Commonplace",
  description: "Your library of saved links, notes and notebooks.",
  start_url: "/library",
  scope: "/",
  display: "standalone",
  theme_color: THEME.light,
  background_color: THEME.background,
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
  ],
  share_target: {
    action: "/share",
    method: "GET",
    params: { title: "title", text: "text", url: "url" },
  },
};

/**
 * What the service worker keeps: exact paths (with their query) of files that hold no user data. The
 * live-updates script's path carries its version, so a new release is a new entry.
 */
export const SHELL = [LIVE_SCRIPT_PATH, "/favicon.svg", ...Object.keys(ICONS).map((n) => `/icons/${n}`)];

const version = new Bun.CryptoHasher("sha256")
  .update(JSON.stringify([SHELL, MANIFEST, FAVICON_SVG]))
  .digest("hex")
  .slice(0, 12);

/**
 * Cache-first for the shell's exact URLs; every other request (pages, /api, the event stream, forms,
 * sign-out) is not touched at all, so it behaves as if there were no worker. Old caches go on activate.
 */
export const SERVICE_WORKER = `"use strict";
var CACHE = "commonplace-shell-${version}";
var SHELL = ${JSON.stringify(SHELL)};
self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
    return self.skipWaiting();
  }));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || SHELL.indexOf(url.pathname + url.search) < 0) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || fetch(request).then(function (res) {
        if (res.ok) void cache.put(request, res.clone());
        return res;
      });
    });
  }));
});
`;

const NOSNIFF = { "x-content-type-options": "nosniff" };

export function appShellRoutes() {
  const png = (name: string) => {
    const bytes = iconPng(name);
    if (!bytes) return new Response("Not found", { status: 404, headers: NOSNIFF });
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": "image/png", "cache-control": "public, max-age=86400", ...NOSNIFF },
    });
  };
  return (
    new Elysia()
      // GET /manifest.webmanifest
      .get(
        "/manifest.webmanifest",
        () =>
          new Response(JSON.stringify(MANIFEST), {
            headers: { "content-type": "application/manifest+json", "cache-control": "no-cache", ...NOSNIFF },
          }),
        { detail: { hide: true } },
      )
      // GET /sw.js — at the root, so its scope is the whole site; revalidated on every check for updates.
      .get(
        "/sw.js",
        () =>
          new Response(SERVICE_WORKER, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "no-cache",
              "content-security-policy": "default-src 'none'; connect-src 'self'",
              ...NOSNIFF,
            },
          }),
        { detail: { hide: true } },
      )
      // GET /icons/:name
      .get("/icons/:name", ({ params }) => png(params.name), { detail: { hide: true } })
      // GET /apple-touch-icon.png — iOS asks for it at the root whatever the page links to
      .get("/apple-touch-icon.png", () => png("apple-touch-icon.png"), { detail: { hide: true } })
  );
}
