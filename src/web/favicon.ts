// The site icon: one SVG kept in the source (so the compiled binary carries it), and /favicon.ico
// pointing at it for clients that ask for the old name.
import { Elysia } from "elysia";

/** A page with lines on the accent colour of the stylesheet; readable at 16 px. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#2952cc"/>
<path d="M17 12h22l9 9v31H17z" fill="#fff"/>
<path d="M39 12v9h9z" fill="#b8c8ff"/>
<path d="M24 30h17M24 37h17M24 44h11" stroke="#2952cc" stroke-width="3.5" stroke-linecap="round"/>
</svg>
`;

const ICON_HEADERS = {
  "content-type": "image/svg+xml",
  "cache-control": "public, max-age=86400",
  "x-content-type-options": "nosniff",
  // An SVG opened on its own is a document: it may draw itself and nothing else.
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
};

export function faviconRoutes() {
  return (
    new Elysia()
      // GET /favicon.svg
      .get("/favicon.svg", () => new Response(FAVICON_SVG, { headers: ICON_HEADERS }), { detail: { hide: true } })
      // GET /favicon.ico — browsers and feed readers ask for it whatever the page links to
      .get(
        "/favicon.ico",
        () =>
          new Response(null, {
            status: 301,
            headers: { location: "/favicon.svg", "cache-control": "public, max-age=86400" },
          }),
        {
          detail: { hide: true },
        },
      )
  );
}
