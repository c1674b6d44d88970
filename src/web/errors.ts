// Errors outside the machine interfaces render as HTML: an unknown page or a failure on a page shows
// the layout with a plain message and links onward, never a problem+json document.
import { ERROR_CODES, type ErrorCode } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import { pageResponse, type LayoutUser } from "../http/html/html.ts";
import { readCookie, SESSION_COOKIE } from "./http.ts";
import { routerPath } from "../http/path.ts";
import { errorPage } from "../http/html/error-page.ts";

/** Paths whose clients are programs: they keep problem+json. */
const MACHINE_PATHS = /^\/(?:api|mcp|\.well-known|healthz)(?:\/|$)|^\/oauth\/(?:token|register|revoke)$/;

export const isPagePath = (path: string): boolean => !MACHINE_PATHS.test(path);

export interface PageError {
  code: ErrorCode;
  detail?: string;
  requestId: string;
  headers?: Record<string, string>;
}

export type PageErrorRenderer = (request: Request, e: PageError) => Promise<Response | undefined>;

function words(e: PageError, request: Request, path: string): { title: string; detail: string } {
  switch (e.code) {
    case "not_found":
      return {
        title: "Page not found",
        detail: `There is no page at ${path}. The address may be mistyped, or what it showed was moved or deleted.`,
      };
    case "method_not_allowed":
      return {
        title: "This page cannot do that",
        detail: `${path} does not accept ${request.method} requests. Open it from a link or the menu instead.`,
      };
    case "internal_error":
      return {
        title: "Something went wrong",
        detail:
          "Something went wrong on our side, and nothing you did caused it. Try again in a moment; if it keeps happening, give the administrator the request id below.",
      };
    default: {
      const title = ERROR_CODES[e.code][1];
      return { title, detail: e.detail ?? title };
    }
  }
}

/** The path as the person typed it (it is escaped as text when shown). */
function shownPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Renders page errors with the signed-in person's menu when there is a valid session. */
export function createPageErrors(s: Pick<WebDeps, "accounts">): PageErrorRenderer {
  async function userOf(request: Request): Promise<LayoutUser | null> {
    try {
      const session = await s.accounts.sessionFromToken(readCookie(request, SESSION_COOKIE));
      if (!session) return null;
      const u = await s.accounts.userById(session.userId);
      return { name: u.name, email: u.email, csrfToken: session.csrfToken, path: new URL(request.url).pathname };
    } catch {
      return null; // an error page must render even when the database is what failed
    }
  }
  return async (request, e) => {
    const path = routerPath(request);
    if (!isPagePath(path)) return undefined;
    const { title, detail } = words(e, request, shownPath(path));
    const status = ERROR_CODES[e.code][0];
    const markup = errorPage({ status, title, detail, user: await userOf(request), requestId: e.requestId });
    const headers: Record<string, string> = { "x-request-id": e.requestId };
    // Keep what the error says (Allow, Retry-After); the page sets its own content headers.
    for (const [k, v] of Object.entries(e.headers ?? {})) if (!/^content-/i.test(k)) headers[k] = v;
    return pageResponse(markup, { status, headers });
  };
}
