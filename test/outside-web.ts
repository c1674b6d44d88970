// A local Bun.serve playing "the outside web" for ingestion tests: articles, PDFs, errors, traps.
import { buildPdf } from "./fixtures/pages/pdf-builder.ts";
import { encodePng } from "../src/png.ts";

export const ARTICLE_HTML = `<!doctype html><html lang="en"><head><title>Life in the tide pools | Coast Weekly</title>
<meta property="og:site_name" content="Coast Weekly"><meta name="author" content="Mara Quinn">
<meta property="article:published_time" content="2024-03-05T09:30:00Z"></head><body>
<nav><a href="/">Home</a> <a href="/subscribe">Subscribe to our newsletter</a></nav>
<div class="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
<aside class="sidebar"><h3>Trending now</h3><ul><li>Celebrity chef opens ninth restaurant</li></ul></aside>
<main><article><h1>Life in the tide pools</h1><p class="byline">By Mara Quinn</p>
<p>Tide pools are small worlds left behind when the ocean retreats at low tide. Anemones, sea stars and hermit crabs survive
hours of sun and wind before the water returns, and each of them has a strategy for holding on.</p>
<h2>Holding on</h2>
<p>Sea stars grip the rock with hundreds of tube feet powered by a water vascular system, while limpets clamp down so tightly
that a gull cannot pry them loose. Anemones fold their tentacles inward to keep moisture in.</p>
<p>Visitors should step only on bare rock, never lift animals from the water, and check the <a href="/tides">tide table</a>
before walking out, because the sea comes back faster than most people expect.</p>
</article></main>
<section id="comments"><h3>Comments</h3><p>Great article, first!!! Visit my casino site.</p></section>
<footer>Copyright Coast Weekly. All rights reserved. Privacy policy.</footer></body></html>`;

/** An article with one picture, which is also its preview image (og:image). */
export const ILLUSTRATED_HTML = `<!doctype html><html lang="en"><head><title>Kelp forests</title>
<meta property="og:image" content="/picture.png"></head><body><article><h1>Kelp forests</h1>
<p>Kelp grows up to half a metre a day in cold, clear water, and whole forests of it shelter fish, urchins and otters.</p>
<p><img src="/picture.png" alt="A kelp forest"></p>
<p>Otters wrap themselves in the fronds to sleep, so the tide does not carry them away in the night.</p>
</article></body></html>`;

/** A 64×64 teal square. */
export const PICTURE_PNG = encodePng(
  new Uint8Array(64 * 64 * 4).map((_, i) => [20, 140, 150, 255][i % 4]!),
  64,
);

export function startOutsideWeb() {
  const hits = new Map<string, number>();
  let flaky = 0;
  let port = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req): Promise<Response> {
      const path = new URL(req.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      switch (path) {
        case "/article":
          return new Response(ARTICLE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/doc.pdf":
          return new Response(
            buildPdf(
              [
                ["Quarterly report on river otters", "Otters returned to the upper valley."],
                ["Page two: counts rose by 40 percent."],
              ],
              { title: "River otters report", author: "Field Team" },
            ) as Uint8Array<ArrayBuffer>,
            {
              headers: { "content-type": "application/pdf" },
            },
          );
        case "/notes.txt":
          return new Response("Plain notes\n\nBring water and a map.", {
            headers: { "content-type": "text/plain; charset=utf-8" },
          });
        case "/readme.md":
          return new Response("# Project readme\n\nRun `make` to build.", {
            headers: { "content-type": "text/markdown" },
          });
        case "/illustrated":
          return new Response(ILLUSTRATED_HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/picture.png":
          return new Response(PICTURE_PNG as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
        case "/image.png":
          return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } });
        case "/gone":
          return new Response("gone", { status: 410 });
        case "/missing":
          return new Response("missing", { status: 404 });
        case "/broken":
          return new Response("oops", { status: 500 });
        case "/flaky":
          return ++flaky === 1
            ? new Response("busy", { status: 503 })
            : new Response(ARTICLE_HTML, { headers: { "content-type": "text/html" } });
        case "/late-first-byte":
          // Thinks 800 ms before its first byte (headers included), then sends the whole article.
          await new Promise((r) => setTimeout(r, 800));
          return new Response(ARTICLE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/slow":
          await new Promise((r) => setTimeout(r, 5_000));
          return new Response("late");
        case "/huge":
          return new Response(`<html><body><p>${"big ".repeat(200_000)}</p></body></html>`, {
            headers: { "content-type": "text/html" },
          });
        case "/moved":
          return Response.redirect(`http://127.0.0.1:${port}/article`, 301);
        case "/to-private":
          return Response.redirect("http://10.255.255.1/internal", 302);
        case "/malformed.pdf":
          return new Response("%PDF-1.4 garbage garbage", { headers: { "content-type": "application/pdf" } });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  port = server.port!;
  return { url: (p: string) => `http://127.0.0.1:${port}${p}`, hits, stop: () => server.stop(true) };
}
