// Server-side HTML: an escaping tagged template, the page layout and the headers every page carries.
import { contentSecurityPolicy, SCRIPT, STYLE } from "./assets.ts";
import { LIVE_SCRIPT_PATH } from "./live-script.ts";

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Trusted markup, inserted as is. Never pass user input here. */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/**
 * html`<p>${name}</p>`: interpolated values are escaped for text and quoted attributes; arrays
 * are joined; nested html`` results and raw() pass through. It does not make URLs safe in href
 * attributes (javascript:) — only put URLs we built there.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

export interface LayoutUser {
  name: string;
  email: string;
  /** The session's CSRF token, for the sign-out form in the header. */
  csrfToken: string;
  /** The page's path: the navigation marks the section it belongs to (`aria-current`). */
  path?: string;
}

export interface Flash {
  kind: "ok" | "error";
  text: string;
}

export interface LayoutInput {
  title: string;
  user?: LayoutUser | null;
  body: SafeHtml;
  flash?: Flash;
  /** Narrow column for the sign-in and sign-up forms. */
  narrow?: boolean;
  /** A small window (the bookmarklet's): the brand only, no navigation bar. */
  bare?: boolean;
  /** More of the <head> (a <noscript> refresh for pages that follow progress without script). */
  head?: SafeHtml;
}

/** The sections of the navigation, each with the paths that belong to it. */
const SECTIONS: [href: string, label: string, paths: string[]][] = [
  ["/library", "Library", ["/library", "/sources", "/highlights", "/tags"]],
  ["/notebooks", "Notebooks", ["/notebooks"]],
  ["/notes", "Notes", ["/notes"]],
  ["/search", "Search", ["/search"]],
  ["/podcasts", "Podcasts", ["/podcasts"]],
  ["/feeds", "Feeds", ["/feeds"]],
  ["/workflows", "Workflows", ["/workflows", "/runs"]],
  ["/settings", "Settings", ["/settings", "/oauth", "/extension"]],
];

const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

function nav(user: LayoutUser | null | undefined): SafeHtml {
  if (!user) return html`<nav aria-label="Main"><a href="/signin">Sign in</a></nav>`;
  const path = user.path ?? "";
  return html`<nav aria-label="Main">
      ${SECTIONS.map(([href, label, paths]) =>
        paths.some((p) => within(path, p))
          ? html`<a href="${href}" aria-current="page">${label}</a>`
          : html`<a href="${href}">${label}</a>`,
      )}
      <form method="post" action="/signout">
        <input type="hidden" name="csrf" value="${user.csrfToken}">
        <button type="submit" class="link" title="Signed in as ${user.email}">Sign out</button>
      </form>
    </nav>`;
}

export function layout(input: LayoutInput): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${input.title} · Commonplace</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#1d2026" media="(prefers-color-scheme: dark)">
<meta name="apple-mobile-web-app-capable" content="yes">
<meta name="mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-title" content="Commonplace">
<style>${raw(STYLE)}</style>
${input.head ?? ""}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="brand" href="/">Commonplace</a>${input.bare ? "" : nav(input.user)}</div></header>
<main id="main" tabindex="-1"${raw(input.narrow || input.bare ? ' class="narrow"' : "")}>
${input.flash ? html`<div class="flash${input.flash.kind === "error" ? " error" : ""}" role="status">${input.flash.text}</div>` : ""}
${input.body}
</main>
<script>${raw(SCRIPT)}</script>
${input.user ? html`<script src="${LIVE_SCRIPT_PATH}" defer></script>` : ""}
</body>
</html>`;
}

/** Headers every HTML page carries: strict CSP, no sniffing, no framing, no caching of private pages. */
export function pageHeaders(extra: Record<string, string> = {}): Headers {
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": contentSecurityPolicy(),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
  });
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return headers;
}

export function pageResponse(
  markup: SafeHtml,
  init: { status?: number; headers?: Record<string, string>; cookies?: string[] } = {},
): Response {
  const headers = pageHeaders(init.headers);
  for (const c of init.cookies ?? []) headers.append("set-cookie", c);
  return new Response(markup.value, { status: init.status ?? 200, headers });
}
