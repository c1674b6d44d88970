// The reader's stylesheet: typography from the person's preferences (data attributes on #reader set
// custom properties), the themes (which also recolour the page around the article), the compact
// toolbar, the outline and highlights columns, and the inline highlight marks.
import type { READER_WIDTHS } from "../../features/accounts/preferences.ts";

/** Line heights the stylesheet knows: 1.20 to 2.20 in steps of .05 (a stored value is rounded to one). */
export const LINE_HEIGHTS = Array.from({ length: 21 }, (_, i) => (1.2 + i * 0.05).toFixed(2));
export const SIZES = Array.from({ length: 13 }, (_, i) => 14 + i);
/** The measure in em of the reader's own font: about 55, 65 and 80 characters a line. */
const MEASURES: Record<(typeof READER_WIDTHS)[number], string> = { narrow: "29em", medium: "34em", wide: "42em" };

export const SERIF = `Charter, "Bitstream Charter", "Iowan Old Style", "Source Serif Pro", "Source Serif 4", Cambria, Georgia, serif`;
export const SANS = `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`;

const LIGHT = `--fg: #1d1f23; --muted: #5d6470; --bg: #fbfbfa; --card: #fff; --line: #dcdfe4; --accent: #2952cc;
  --danger: #b3261e; --ok-bg: #e7f4ea; --err-bg: #fdecea; color-scheme: light;`;
const SEPIA = `--fg: #3b2f22; --muted: #65533f; --bg: #f4ecd8; --card: #fbf6e9; --line: #d9c9a8; --accent: #7a3d0c;
  --danger: #9c2a16; --ok-bg: #e4e9c9; --err-bg: #f5d9c8; color-scheme: light;`;
const DARK = `--fg: #e7e9ee; --muted: #a1a8b3; --bg: #15171b; --card: #1d2026; --line: #343843; --accent: #8aa8ff;
  --danger: #ff8a80; --ok-bg: #1e3325; --err-bg: #3a1f1d; color-scheme: dark;`;

const DARK_HL = `--hl-yellow: #5b4a0e; --hl-green: #1d4a2a; --hl-blue: #1b3a63; --hl-pink: #5a2240; --hl-purple: #3f2c69;
  --hl-yellow-solid: #e8c13a; --hl-green-solid: #4cc27a; --hl-blue-solid: #6aa5f0; --hl-pink-solid: #ee7aa8; --hl-purple-solid: #a987ec;`;
/** Marks dark enough for light text, in the dark theme and in auto on a dark system. */
const DARK_MARKS = `#reader[data-theme="dark"] { ${DARK_HL} }
@media (prefers-color-scheme: dark) { #reader[data-theme="auto"] { ${DARK_HL} } }`;

/** The page's variables for a chosen theme; "auto" keeps the app's own, which follow the system. */
const themed = (theme: string, vars: string, buttonText: string) => `
:root:has(#reader[data-theme="${theme}"]) { ${vars} }
:root:has(#reader[data-theme="${theme}"]) button:not(.link):not(.danger):not(.secondary):not(.tool) { color: ${buttonText}; }`;

export const READER_STYLE = `
main:has(#reader) { max-width: 90rem; padding-top: 0; }
${themed("light", LIGHT, "#fff")}
${themed("sepia", SEPIA, "#fff")}
${themed("dark", DARK, "#15171b")}
:root:has(#reader) header .bar { max-width: 90rem; }
#reader { --r-serif: ${SERIF}; --r-sans: ${SANS}; --r-size: 19px; --r-lh: 1.6; --r-measure: 34em; --r-font: var(--r-serif); }
${SIZES.map((n) => `#reader[data-size="${n}"] { --r-size: ${n}px; }`).join("\n")}
${LINE_HEIGHTS.map((v) => `#reader[data-line-height="${v}"] { --r-lh: ${v}; }`).join("\n")}
${Object.entries(MEASURES)
  .map(([w, m]) => `#reader[data-width="${w}"] { --r-measure: ${m}; }`)
  .join("\n")}
#reader[data-font="sans"] { --r-font: var(--r-sans); }
#reader [hidden] { display: none !important; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }

/* The toolbar: one compact row, sticky at the top while reading; its thin progress bar along the bottom. */
.r-toolbar { position: sticky; top: 0; z-index: 5; background: var(--bg); margin: 0 -1rem; padding: .35rem 1rem 0;
  border-bottom: 1px solid var(--line); }
.r-tools { display: flex; align-items: center; gap: .15rem; flex-wrap: wrap; min-height: 2.75rem; }
.r-tools .spacer { flex: 1 1 auto; }
.r-tools form { margin: 0; display: contents; }
#reader .tool { display: inline-flex; align-items: center; gap: .35rem; min-width: 2.5rem; height: 2.5rem; padding: 0 .55rem; justify-content: center;
  border: 1px solid transparent; border-radius: 8px; background: none; color: var(--fg); text-decoration: none; font: inherit; font-size: .92rem;
  cursor: pointer; list-style: none; }
.tool::-webkit-details-marker { display: none; }
#reader .tool:hover { background: var(--card); border-color: var(--line); }
.tool:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.tool svg { width: 1.25rem; height: 1.25rem; flex: none; fill: none; stroke: currentColor; stroke-width: 1.8; stroke-linecap: round; stroke-linejoin: round; }
[data-state="favorite"] .tool.on svg { fill: currentColor; }
#reader .tool.on { color: var(--accent); }
#reader .tool[data-danger]:hover { color: var(--danger); }
.tool .aa { font-family: var(--r-serif); font-size: 1.15rem; font-weight: 600; letter-spacing: -.02em; }
.r-sep { width: 1px; height: 1.4rem; background: var(--line); margin: 0 .3rem; }
.r-wide-tools { display: contents; }
.r-more { display: none; }
.r-menu { width: 16rem !important; padding: .4rem !important; display: flex; flex-direction: column; }
.r-menu form { display: block; }
#reader .r-menu .tool { width: 100%; justify-content: flex-start; gap: .6rem; }
.r-menu .sr-only { position: static; width: auto; height: auto; margin: 0; overflow: visible; clip: auto; white-space: normal; }
@media (max-width: 47.99rem) { .r-wide-tools, .r-sep { display: none; } .r-more { display: block; } }
.r-pop { position: relative; }
.r-pop > .panel { position: absolute; right: 0; top: calc(100% + .35rem); z-index: 6; width: min(22rem, calc(100vw - 2rem));
  background: var(--card); color: var(--fg); border: 1px solid var(--line); border-radius: 10px; padding: .75rem 1rem 1rem;
  box-shadow: 0 8px 28px rgb(0 0 0 / .18); }
.r-pop > .panel h2 { font-size: 1rem; margin: 0 0 .25rem; }
.r-pop .suggested { display: flex; flex-wrap: wrap; gap: .3rem; margin-top: .3rem; }
.r-pop .suggested form { margin: 0; }
.r-pop .suggested button { padding: .15rem .6rem; font-size: .85rem; }
.r-pop > .panel fieldset { border: 0; padding: 0; margin: .6rem 0 0; }
.r-pop > .panel legend { padding: 0; font-size: .85rem; font-weight: 600; margin-bottom: .3rem; }
.r-pop > .panel label { margin: .6rem 0 .25rem; font-size: .85rem; }
.r-pop > .panel select { width: 100%; }
.seg { display: flex; gap: .35rem; flex-wrap: wrap; }
.seg label { flex: 1 1 0; margin: 0 !important; display: flex; align-items: center; justify-content: center; gap: .3rem; min-height: 2.4rem;
  padding: .3rem .5rem; border: 1px solid var(--line); border-radius: 8px; font-weight: 500; cursor: pointer; background: var(--bg); color: var(--fg); }
.seg label:has(input:checked) { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.seg label:has(input:focus-visible) { outline: 2px solid var(--accent); outline-offset: 1px; }
.seg input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.seg .serif { font-family: var(--r-serif); font-size: 1.05rem; }
.seg .swatch { width: 1rem; height: 1rem; border-radius: 50%; border: 1px solid #8b8f98; flex: none; }
.swatch.auto { background: linear-gradient(135deg, #fbfbfa 50%, #15171b 50%); }
.swatch.light { background: #fbfbfa; } .swatch.sepia { background: #f4ecd8; } .swatch.dark { background: #15171b; }
.r-progress { display: block; width: 100%; height: 3px; margin: .35rem 0 -1px; border: 0; background: transparent; appearance: none; -webkit-appearance: none; }
.r-progress::-webkit-progress-bar { background: transparent; }
.r-progress::-webkit-progress-value { background: var(--accent); }
.r-progress::-moz-progress-bar { background: var(--accent); }

/* The page: the article in the middle, the outline left and the highlights right on wide screens. */
.reader { display: grid; grid-template-columns: minmax(0, 1fr); column-gap: 3rem; margin-top: 1.5rem; }
.r-outline { display: none; }
.r-main { min-width: 0; }
.r-article, .r-head { font-family: var(--r-font); font-size: var(--r-size); line-height: var(--r-lh);
  max-width: var(--r-measure); margin: 0 auto; }
.r-head { background: none; border: 0; }
.r-head h1 { font-size: 1.75em; line-height: 1.2; margin: .5rem 0 .6rem; letter-spacing: -.01em; overflow-wrap: anywhere; }
.r-head .meta { font-family: var(--r-sans); font-size: .9rem; line-height: 1.5; color: var(--muted); margin: 0 0 .4rem; }
.r-head .meta a { color: inherit; }
.r-head .meta > *:not(.tags) { white-space: nowrap; }
.r-head .tags { font-family: var(--r-sans); font-size: .85rem; display: flex; flex-wrap: wrap; gap: .2rem .5rem; }
.r-head .tag { overflow-wrap: anywhere; min-width: 0; max-width: 100%; }
.r-head .notice { font-family: var(--r-sans); font-size: .9rem; line-height: 1.45; padding: .6rem .8rem; border-radius: 8px; background: var(--card);
  border: 1px solid var(--line); }
.r-rule { border: 0; border-top: 1px solid var(--line); margin: 1.25rem 0 1.5rem; }
.r-article { overflow-wrap: anywhere; }
/* A wide table scrolls inside the article rather than widening the page. */
.r-article table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; }
.r-article :is(h1, h2, h3, h4, h5, h6) { line-height: 1.25; margin: 1.8em 0 .6em; scroll-margin-top: 4.5rem; }
.r-article h1 { font-size: 1.5em; } .r-article h2 { font-size: 1.3em; } .r-article h3 { font-size: 1.12em; } .r-article :is(h4, h5, h6) { font-size: 1em; }
.r-article p, .r-article ul, .r-article ol { margin: 0 0 1.1em; }
.r-article img { max-width: 100%; height: auto; display: block; margin: 1.2em auto; border-radius: 4px; }
.r-article pre { font-size: .8em; line-height: 1.5; overflow-x: auto; padding: .75rem 1rem; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
.r-article code { font-size: .85em; }
.r-article blockquote { margin: 1.2em 0; padding-left: 1em; border-left: 3px solid var(--line); color: var(--muted); }
.r-article table { margin: 1em 0; font-size: .9em; display: block; overflow-x: auto; }
.r-article a { color: var(--accent); text-underline-offset: .15em; }
.r-article hr { border: 0; border-top: 1px solid var(--line); margin: 2em 0; }
.r-after { max-width: var(--r-measure); margin: 3rem auto 0; font-size: 1rem; }
.r-after.wide { max-width: 42rem; }
.r-after h2 { font-size: 1.1rem; }
.r-outline-narrow { margin: 0 0 1rem; font-family: var(--r-sans); font-size: .95rem; }
.r-outline-narrow > summary { color: var(--fg); }
.r-toc { list-style: none; margin: .5rem 0 0; padding: 0; }
.r-toc li { margin: 0; }
.r-toc a { display: block; padding: .3rem .5rem; border-left: 2px solid var(--line); color: var(--muted); text-decoration: none; line-height: 1.35; font-size: .9rem; }
.r-toc a:hover, .r-toc a[aria-current="true"] { color: var(--fg); border-left-color: var(--accent); }
.r-toc .l2 a { padding-left: 1.2rem; } .r-toc .l3 a { padding-left: 1.9rem; } .r-toc .l4 a, .r-toc .l5 a, .r-toc .l6 a { padding-left: 2.6rem; }
.r-side { min-width: 0; font-size: .95rem; }
.r-side h2 { font-size: 1rem; margin: 0 0 .5rem; }
.r-col-title { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 .5rem; font-weight: 600; }
@media (min-width: 64rem) {
  .reader { grid-template-columns: minmax(10rem, 17rem) minmax(0, 1fr) minmax(10rem, 17rem); }
  .r-outline { display: block; grid-column: 1; grid-row: 1; position: sticky; top: 4.5rem; align-self: start; max-height: calc(100vh - 6rem); overflow-y: auto; }
  .r-main { grid-column: 2; grid-row: 1; }
  .r-side { grid-column: 3; grid-row: 1; position: sticky; top: 4.5rem; align-self: start; max-height: calc(100vh - 6rem); overflow-y: auto; }
  .r-outline-narrow { display: none; }
}
@media (max-width: 40rem) {
  .tool { min-width: 2.4rem; padding: 0 .4rem; }
  .r-tools { gap: 0; }
  .r-head { background: none; border: 0; }
.r-head h1 { font-size: 1.5em; }
  .r-side { margin-top: 2.5rem; }
}
@media (max-width: 63.99rem) { .r-side { margin: 2.5rem auto 0; max-width: var(--r-measure); width: 100%; } }

/* Highlights: inline marks, the column's entries, the colour swatches and the selection popover. */
#reader { --hl-yellow: #ffe8a3; --hl-green: #c9efcb; --hl-blue: #cfe3ff; --hl-pink: #ffd4e5; --hl-purple: #e5d9ff; }
${DARK_MARKS}
#reader mark.hl { color: inherit; border-radius: 2px; padding: 0; cursor: pointer; box-decoration-break: clone; -webkit-box-decoration-break: clone; }
#reader mark.hl:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
${["yellow", "green", "blue", "pink", "purple"].map((c) => `#reader mark.hl-${c} { background: var(--hl-${c}); } .hl-item.hl-${c} { border-left-color: var(--hl-${c}-solid); }`).join("\n")}
#reader { --hl-yellow-solid: #d9a900; --hl-green-solid: #2f9e5b; --hl-blue-solid: #3b7fd9; --hl-pink-solid: #d6457f; --hl-purple-solid: #8756d1; }
.hl-swatch { display: inline-block; width: 1.15rem; height: 1.15rem; border-radius: 50%; border: 1px solid rgb(0 0 0 / .25); flex: none; }
${["yellow", "green", "blue", "pink", "purple"].map((c) => `.hl-swatch.hl-${c} { background: var(--hl-${c}-solid); }`).join("\n")}
.hl-list { list-style: none; margin: 0 0 1rem; padding: 0; }
.hl-item { border-left: 3px solid var(--line); padding: .1rem 0 .1rem .75rem; margin: 0 0 1rem; }
.hl-quote { margin: 0; font-family: var(--r-font); font-size: .95rem; line-height: 1.45; color: var(--fg); border: 0; padding: 0; }
.hl-quote a { color: inherit; text-decoration: none; display: -webkit-box; -webkit-line-clamp: 8; -webkit-box-orient: vertical; overflow: hidden; }
.hl-quote a:hover { text-decoration: underline; }
.hl-note { margin: .35rem 0 0; font-size: .9rem; white-space: pre-line; overflow-wrap: anywhere; }
.hl-note::before { content: "✎ "; color: var(--muted); }
.hl-orphan { font-size: .8rem; color: var(--danger); margin: 0 0 .25rem; }
.hl-edit { margin-top: .3rem; font-size: .85rem; }
.hl-edit > summary { color: var(--muted); font-weight: 500; }
.hl-edit form { margin: .4rem 0; }
.hl-edit label { font-size: .85rem; }
.hl-colors { border: 0; padding: 0; margin: .4rem 0 0; display: flex; gap: .35rem; flex-wrap: wrap; }
.hl-colors legend { font-size: .85rem; font-weight: 600; padding: 0; margin-bottom: .25rem; }
.hl-swatch-label { display: inline-flex !important; margin: 0 !important; padding: .3rem; border-radius: 50%; border: 2px solid transparent; cursor: pointer; }
.hl-swatch-label:has(input:checked) { border-color: var(--fg); }
.hl-swatch-label:has(input:focus-visible) { outline: 2px solid var(--accent); }
.hl-swatch-label input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.hl-count { font-weight: 400; }
.hl-pop { position: absolute; z-index: 8; background: var(--card); color: var(--fg); border: 1px solid var(--line); border-radius: 10px;
  box-shadow: 0 6px 24px rgb(0 0 0 / .2); padding: .3rem; font-size: .9rem; max-width: calc(100vw - 1rem); }
.hl-pop[hidden] { display: none; }
.hl-pop-row { display: flex; align-items: center; gap: .1rem; }
#reader .hl-pick { background: none; border: 1px solid transparent; color: var(--fg); padding: .35rem; border-radius: 8px; min-width: 2.2rem; min-height: 2.2rem;
  display: inline-flex; align-items: center; justify-content: center; font-weight: 600; }
#reader .hl-pick:hover { background: var(--bg); border-color: var(--line); }
.hl-note-button { margin-left: .25rem; border-left: 1px solid var(--line) !important; border-radius: 0 8px 8px 0 !important; padding: .35rem .6rem !important; }
.hl-pop-note { padding: .3rem .4rem .4rem; width: 18rem; max-width: 100%; }
.hl-pop-note label { margin-top: .2rem; font-size: .85rem; }
.hl-pop-error { margin: .3rem .4rem; }
`;

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
/** The CSP source admitting this stylesheet inline. */
export const READER_STYLE_HASH = sha256(READER_STYLE);
