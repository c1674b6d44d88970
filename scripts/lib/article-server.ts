// A local "outside web" for benchmarks: /article/<n> answers a varied, realistic article page.
const TOPICS = [
  "tide pools",
  "sourdough",
  "orbital mechanics",
  "jazz harmony",
  "bond markets",
  "beekeeping",
  "glaciers",
  "typography",
  "chess openings",
  "urban trees",
];
const WORDS =
  "the a of river light market theory practice season history method early modern small large quiet careful sudden common rare signal pattern measure field garden engine letter network bridge harbour mountain".split(
    " ",
  );

function rand(seed: number) {
  let s = seed >>> 0 || 1;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function article(n: number): string {
  const r = rand(n + 1);
  const topic = TOPICS[n % TOPICS.length]!;
  const para = () =>
    `${Array.from({ length: 40 + Math.floor(r() * 60) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(" ")}.`;
  const sections = Array.from(
    { length: 3 + (n % 4) },
    (_, i) => `<h2>Part ${i + 1} on ${topic}</h2><p>${para()}</p><p>${para()}</p>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><title>Notes on ${topic} #${n} | Bench Weekly</title>
<meta property="og:site_name" content="Bench Weekly"><meta name="author" content="Writer ${n % 17}"></head><body>
<nav><a href="/">Home</a><a href="/about">About</a><a href="/subscribe">Subscribe</a></nav>
<aside class="sidebar"><h3>Popular</h3><ul><li>Another story</li><li>Yet another</li></ul></aside>
<article><h1>Notes on ${topic} #${n}</h1><p>${para()}</p>${sections}</article>
<section class="comments"><p>Nice post!</p></section><footer>© Bench Weekly</footer></body></html>`;
}

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const m = /^\/article\/(\d+)$/.exec(new URL(req.url).pathname);
    if (!m) return new Response("not found", { status: 404 });
    return new Response(article(Number(m[1])), { headers: { "content-type": "text/html; charset=utf-8" } });
  },
});
console.log(`http://127.0.0.1:${server.port}`);
