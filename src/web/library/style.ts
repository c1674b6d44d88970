// The library pages' extra stylesheet and the CSP that admits it (and, where Markdown is shown, web images).
import { contentSecurityPolicy } from "../../http/html/assets.ts";
import { LIBRARY_PAGE_STYLE } from "./library-style.ts";

export const LIBRARY_STYLE = `.tag-cloud { list-style: none; padding: 0; margin: 1rem 0; display: flex; flex-wrap: wrap; gap: .45rem; }
.tag-cloud li { border: 1px solid var(--line); border-radius: 999px; padding: .2rem .7rem; background: var(--card);
  max-width: 100%; overflow-wrap: anywhere; }
.tag-cloud a { text-decoration: none; font-weight: 600; }
.highlight-list blockquote.quote { margin: 0; padding: .2rem .8rem; border-left: 4px solid #e0b400; }
.highlight-list blockquote.hl-green { border-color: #3a9d5d; }
.highlight-list blockquote.hl-blue { border-color: #3b82f6; }
.highlight-list blockquote.hl-pink { border-color: #e0569b; }
.highlight-list blockquote.hl-purple { border-color: #8b5cf6; }
.highlight-list .note { margin: .3rem 0 0 .9rem; }

textarea, select { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .45rem .6rem; }
textarea { width: 100%; min-height: 16rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
textarea.short { min-height: 5rem; font-family: inherit; font-size: inherit; }
input[type=url], input[type=search] { width: 100%; padding: .55rem .65rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 6px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .9rem 0 0; padding: .4rem .8rem .6rem; min-width: 0; }
select { max-width: 100%; }
legend { font-weight: 600; padding: 0 .3rem; }
label.check { display: inline-flex; gap: .35rem; align-items: center; font-weight: 400; margin: .2rem 1rem .2rem 0; }
.filters { display: flex; gap: .75rem; align-items: flex-end; flex-wrap: wrap; margin: 1rem 0; }
.filters label { margin: 0 0 .2rem; font-size: .85rem; }
/* A select as wide as its longest option (a long notebook name) shrinks with its column instead. */
.filters > div { min-width: 0; max-width: 100%; }
.filters select { width: 100%; max-width: min(24rem, 100%); text-overflow: ellipsis; }
.filters input[type=text] { padding: .45rem .6rem; margin: 0; width: 12rem; max-width: 100%; }
.filters select, .filters input[type=text] { height: 2.4rem; box-sizing: border-box; }
.items { list-style: none; padding: 0; margin: 0; }
.items li { padding: .65rem 0; border-bottom: 1px solid var(--line); }
.items .meta { font-size: .88rem; color: var(--muted); display: flex; flex-wrap: wrap; gap: .2rem .9rem; }
.title { font-weight: 600; overflow-wrap: anywhere; }
.status { font-size: .8rem; padding: .05rem .45rem; border-radius: 999px; border: 1px solid var(--line); }
.status.failed { color: var(--danger); border-color: var(--danger); }
.status.ready { color: var(--fg); }
.snippet { margin: .25rem 0 0; }
mark { background: #ffe58a; color: #1d1f23; border-radius: 2px; padding: 0 1px; }
article.prose { overflow-wrap: anywhere; line-height: 1.65; }
article.prose img { max-width: 100%; height: auto; }
article.prose pre { overflow-x: auto; padding: .75rem; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
article.prose blockquote { margin: 1rem 0; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--muted); }
/* A wide table scrolls inside the article rather than widening the page. */
article.prose table { margin: 1rem 0; display: block; max-width: 100%; overflow-x: auto; }
.row-actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 1rem 0; }
.row-actions form { margin: 0; }
button.secondary { background: none; color: var(--accent); }
.answer { white-space: pre-line; }
.citations li { margin: .5rem 0; }
.citations blockquote { margin: .25rem 0; padding-left: .75rem; border-left: 3px solid var(--line); }
/* podcasts: the format picker, status, player and transcript; checkbox lists that scroll */
.formats { display: grid; grid-template-columns: minmax(0, 1fr); gap: .4rem; }
.formats label.format > span { min-width: 0; overflow-wrap: anywhere; }
.formats label.format { display: flex; gap: .6rem; align-items: flex-start; font-weight: 400; margin: 0; padding: .5rem .65rem;
  border: 1px solid var(--line); border-radius: 6px; cursor: pointer; }
.formats label.format:has(input:checked) { border-color: var(--accent); }
.formats input { margin-top: .3rem; }
.formats .name { font-weight: 600; }
.formats .cost { white-space: nowrap; }
.picklist { max-height: 16rem; overflow-y: auto; }
.items .preview { margin: .15rem 0 .2rem; color: var(--muted); display: -webkit-box; -webkit-line-clamp: 2;
  -webkit-box-orient: vertical; overflow: hidden; }
.picker .picked:not(:empty) { margin: .25rem 0 .4rem; }
.picker .find { display: flex; gap: .5rem; }
.picker .find input { flex: 1; min-width: 0; width: auto; padding: .45rem .6rem; font: inherit; color: inherit;
  background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
.picker-caption { margin: .6rem 0 .1rem; font-size: .9rem; }
.picklist label.check { display: flex; margin: .25rem 0; align-items: flex-start; }
.picklist input { margin-top: .3rem; flex: none; }
details.card { margin: 1rem 0; }
details > summary { cursor: pointer; font-weight: 600; }
form details { margin: .9rem 0 0; }
label .muted, legend .muted { font-weight: 400; }
@media (max-width: 40rem) { .card fieldset { padding: .3rem .5rem .5rem; } .formats label.format { padding: .45rem .5rem; } .formats .cost { white-space: normal; } }
.podcast-status { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: 1rem 0; }
.podcast-status progress { flex: 1 1 10rem; }
audio { width: 100%; margin: .5rem 0; }
.transcript { list-style: none; padding: 0; margin: 0; }
.transcript li { margin: 0 0 .8rem; overflow-wrap: anywhere; }
.transcript .speaker { font-weight: 600; display: block; font-size: .9rem; color: var(--muted); }
.transcript p { margin: .1rem 0 0; }
.status.queued, .status.generating { border-style: dashed; }
input[type=radio], input[type=checkbox] { accent-color: var(--accent); }
.label-row { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: .25rem 1rem; }
.label-row label { margin-bottom: .3rem; }
.shortcut { font-size: .85rem; }
@media (hover: none) { .shortcut { display: none; } }
kbd { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85em; padding: 0 .35rem; border: 1px solid var(--line);
  border-bottom-width: 2px; border-radius: 4px; background: var(--card); color: var(--fg); }
${LIBRARY_PAGE_STYLE}`;

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
const cache = new Map<string, string>();

/**
 * The app's policy plus this stylesheet's hash. Images come from this site only, rendered Markdown's
 * included (the archived copy's images are served same-origin). Pages with a player may load audio
 * from this site.
 */
export function libraryCsp(opts: { media?: boolean } = {}): string {
  const key = String(Boolean(opts.media));
  let csp = cache.get(key);
  if (!csp) {
    csp = contentSecurityPolicy().replace("style-src ", `style-src ${sha256(LIBRARY_STYLE)} `);
    if (opts.media) csp += "; media-src 'self'";
    cache.set(key, csp);
  }
  return csp;
}
