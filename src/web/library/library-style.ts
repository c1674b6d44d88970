// The Library page's stylesheet: toolbar, tabs, cards and compact rows, the bulk bar, the toast and
// the keys dialog. Part of the library stylesheet (style.ts), so the pages' CSP hash covers it.
export const LIBRARY_PAGE_STYLE = `
main:has(> .library), body:has(main > .library) header .bar { max-width: 76rem; }
.vh { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.lib-head { display: flex; flex-wrap: wrap; gap: .75rem 1.25rem; align-items: center; justify-content: space-between; margin-bottom: 1rem; }
.lib-head h1 { margin: 0; }
.toolbar { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: center; flex: 1 1 24rem; justify-content: flex-end; }
.toolbar .search { flex: 1 1 14rem; max-width: 26rem; margin: 0; }
.toolbar input[type=search] { padding: .45rem .65rem; }
.segs { display: inline-flex; margin: 0; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.segs button.seg { background: var(--card); color: var(--fg); border: 0; border-radius: 0; padding: .4rem .8rem; font-size: .92rem; }
.segs button.seg + button.seg { border-left: 1px solid var(--line); }
.segs button.seg[aria-pressed=true] { background: var(--accent); color: #fff; font-weight: 600; }
@media (prefers-color-scheme: dark) { .segs button.seg[aria-pressed=true] { color: #15171b; } .segs button.seg:not([aria-pressed=true]) { color: var(--fg); } }
.keys-open { padding: .4rem .7rem; font-size: .92rem; }
.keys-open kbd { margin-left: .2rem; }
form.add { padding: .8rem 1rem; }
form.add .label-row label { margin-top: 0; }
.pair { display: flex; gap: .5rem; align-items: stretch; min-width: 0; }
.pair > input, .pair > select { flex: 1 1 auto; min-width: 0; }
.pair > button { flex: none; }
form.add details { margin-top: .6rem; }
form.add summary { font-weight: 500; color: var(--accent); font-size: .92rem; }
form.add details[open] > summary { margin-bottom: .3rem; }
form.add + * { margin-top: 1.25rem; }
.tabs { display: flex; flex-wrap: nowrap; gap: .25rem; border-bottom: 1px solid var(--line); overflow-x: auto; margin: 1.25rem 0 .5rem; }
.tabs a { padding: .55rem .85rem; text-decoration: none; color: var(--muted); border-bottom: 2px solid transparent; margin-bottom: -1px; white-space: nowrap; }
.tabs a:hover { color: var(--fg); }
.tabs a.side { margin-left: auto; }
.tabs a.side, .tabs a.side ~ a { color: var(--accent); }
.first-run h2 { margin-top: .2rem; }
.first-run .steps { margin: .5rem 0 0; padding-left: 1.3rem; }
.first-run .steps li { margin: .45rem 0; }
.first-run .steps a { font-weight: 600; margin-right: .5rem; }
.tabs a[aria-current=page] { color: var(--fg); border-bottom-color: var(--accent); font-weight: 600; }
.tabs .count { font-size: .8rem; font-weight: 500; color: var(--muted); background: var(--card); border: 1px solid var(--line); border-radius: 999px; padding: 0 .45rem; margin-left: .2rem; }
.filters-box { margin: .5rem 0; }
.filters-box > summary { font-size: .92rem; color: var(--accent); font-weight: 500; }
.filters-box .filters { margin: .5rem 0 .75rem; }
.list-head { display: flex; justify-content: flex-end; align-items: center; min-height: 1.5rem; margin: .25rem 0 .5rem; font-size: .9rem; }
/* The bulk bar: shown once something is selected (without :has support, always). */
.bulkbar { position: sticky; top: 0; z-index: 3; display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: center; margin: 0 0 .75rem;
  padding: .55rem .75rem; background: var(--card); border: 1px solid var(--accent); border-radius: 10px; box-shadow: 0 4px 14px rgb(0 0 0 / .12); }
.library:not(:has(input.pick:checked)) .bulkbar:not(.has-selection) { display: none; }
.bulkbar .sel-count { font-weight: 600; margin-right: auto; }
.bulkbar .pair { flex: 0 1 17rem; }
.bulkbar .pair input { padding: .35rem .55rem; height: auto; }
.bulkbar .btns { display: flex; flex-wrap: wrap; gap: .4rem; }
.bulkbar button { padding: .35rem .7rem; font-size: .92rem; }
/* Cards */
ul.cards { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(16.5rem, 1fr)); gap: 1rem; }
.cards > li { position: relative; display: flex; flex-direction: column; min-width: 0; background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
.cards .thumb { aspect-ratio: 1.91 / 1; border-radius: 9px 9px 0 0; overflow: hidden; background: var(--line); }
.cards .thumb img { width: 100%; height: 100%; object-fit: cover; display: block; }
.ph { display: flex; align-items: center; justify-content: center; }
.ph span { font-size: 2.4rem; font-weight: 700; line-height: 1; width: 4.2rem; height: 4.2rem; display: flex; align-items: center; justify-content: center;
  border-radius: 16px; background: rgb(255 255 255 / .55); color: rgb(0 0 0 / .62); }
.ph-0 { background: #dbe4ff; } .ph-1 { background: #d3f0e3; } .ph-2 { background: #fde2cf; } .ph-3 { background: #eadcfb; }
.ph-4 { background: #d6eef6; } .ph-5 { background: #f9dbe4; } .ph-6 { background: #e8ecd0; } .ph-7 { background: #e4e1dc; }
@media (prefers-color-scheme: dark) {
  .ph-0 { background: #28345a; } .ph-1 { background: #1f3d33; } .ph-2 { background: #4a3224; } .ph-3 { background: #3a2d52; }
  .ph-4 { background: #20404d; } .ph-5 { background: #4a2a36; } .ph-6 { background: #3a3f26; } .ph-7 { background: #3a3733; }
  .ph span { background: rgb(0 0 0 / .25); color: rgb(255 255 255 / .8); }
}
.cards input.pick { position: absolute; top: .55rem; left: .55rem; width: 1.25rem; height: 1.25rem; margin: 0; z-index: 1; }
.cards .body { display: flex; flex-direction: column; gap: .3rem; padding: .7rem .85rem .55rem; flex: 1; min-width: 0; }
.cards h3.t { font-size: 1.02rem; line-height: 1.3; margin: 0; overflow-wrap: anywhere;
  display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.cards h3.t a { color: var(--fg); text-decoration: none; }
.cards h3.t a:hover { text-decoration: underline; }
.cards .site { margin: 0; font-size: .85rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cards .site .host::before { content: "· "; }
.cards .excerpt { margin: .1rem 0 0; font-size: .9rem; line-height: 1.45; color: var(--muted); overflow-wrap: anywhere;
  display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.cards .meta { margin: .15rem 0 0; display: flex; flex-wrap: wrap; gap: .2rem .7rem; align-items: center; font-size: .82rem; color: var(--muted); }
.chips { display: flex; flex-wrap: wrap; gap: .3rem; margin-top: .15rem; }
.chips a { font-size: .8rem; text-decoration: none; padding: .05rem .5rem; border-radius: 999px; border: 1px solid var(--line); white-space: nowrap;
  max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.chips a.tag { color: var(--accent); }
.chips form.suggest { display: inline; margin: 0; }
.chips button.suggest { font-size: .8rem; padding: .05rem .5rem; border-radius: 999px; border: 1px dashed var(--line);
  background: transparent; color: var(--muted); cursor: pointer; white-space: nowrap; }
.chips button.suggest:hover { color: var(--accent); border-color: var(--accent); }
.chips a.nb { color: var(--fg); background: var(--bg); }
.chips a.nb::before { content: "▤ "; color: var(--muted); }
.cards .foot { margin-top: auto; padding-top: .35rem; display: flex; align-items: center; gap: .6rem; }
.badge { font-size: .78rem; padding: .02rem .45rem; border-radius: 999px; border: 1px solid var(--line); }
.badge.warn { color: #8a4b00; border-color: #c98a2b; background: #fff4e0; }
@media (prefers-color-scheme: dark) { .badge.warn { color: #ffcf8a; border-color: #a86f1c; background: #3a2a12; } }
progress.pbar { -webkit-appearance: none; appearance: none; height: 4px; width: auto; flex: 1 1 auto; border: 0; border-radius: 2px; background: var(--line); overflow: hidden; }
progress.pbar::-webkit-progress-bar { background: var(--line); }
progress.pbar::-webkit-progress-value { background: var(--accent); }
progress.pbar::-moz-progress-bar { background: var(--accent); }
.acts { display: flex; align-items: center; gap: .15rem; margin-left: auto; }
.acts form.act { margin: 0; }
button.icon, details.menu > summary { background: none; border: 1px solid transparent; color: var(--muted); padding: .3rem; border-radius: 6px; line-height: 0;
  display: inline-flex; align-items: center; justify-content: center; min-width: 2rem; min-height: 2rem; cursor: pointer; }
button.icon:hover, details.menu > summary:hover { background: var(--bg); color: var(--fg); border-color: var(--line); }
button.icon.on { color: #b7791f; }
button.icon.on svg { fill: currentColor; }
@media (prefers-color-scheme: dark) { button.icon.on { color: #f6c453; } button.icon { color: var(--muted); } }
details.menu { position: relative; }
details.menu > summary { list-style: none; }
details.menu > summary::-webkit-details-marker { display: none; }
details.menu > summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.menu-pop { position: absolute; right: 0; bottom: calc(100% + .3rem); z-index: 5; width: 16rem; max-width: calc(100vw - 2rem); padding: .6rem .75rem;
  background: var(--card); border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 8px 24px rgb(0 0 0 / .18); }
.menu-pop form.mini { margin: 0 0 .55rem; }
.menu-pop label { margin: 0 0 .25rem; font-size: .85rem; }
.menu-pop input[type=text], .menu-pop select { padding: .35rem .5rem; font-size: .92rem; }
.menu-pop button { padding: .3rem .6rem; font-size: .9rem; }
.menu-pop .links { display: flex; justify-content: space-between; gap: .5rem; margin: .2rem 0 0; font-size: .9rem; }
.menu-pop .del { color: var(--danger); }
[data-card]:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
[data-card]:focus:not(:focus-visible) { outline-color: var(--accent); }
.cards > li:has(input.pick:checked) { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.is-archived h3.t a, .is-archived .title { color: var(--muted); }
/* Compact rows */
ul.rows { list-style: none; padding: 0; margin: 0; border-top: 1px solid var(--line); }
.rows > li { display: grid; grid-template-columns: auto minmax(0, 1fr) 4rem auto; gap: .2rem .75rem; align-items: center; padding: .35rem .4rem; border-bottom: 1px solid var(--line); }
.rows > li:has(input.pick:checked) { background: var(--card); }
.rows input.pick { margin: 0; width: 1.1rem; height: 1.1rem; }
.rows .main { display: flex; align-items: baseline; gap: .2rem .65rem; min-width: 0; flex-wrap: nowrap; font-size: .95rem; }
.rows .title { font-weight: 600; color: var(--fg); text-decoration: none; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 4rem; flex: 0 1 auto; }
.rows .title:hover { text-decoration: underline; }
.rows .site, .rows .mins { font-size: .85rem; color: var(--muted); white-space: nowrap; }
.rows .site { overflow: hidden; text-overflow: ellipsis; max-width: 12rem; flex: 0 0 auto; }
.rows .chips { margin: 0; flex-wrap: nowrap; overflow: hidden; flex: 0 1 auto; }
.rows .status, .rows .badge { white-space: nowrap; }
.rows progress.pbar { width: 4rem; }
.rows > li > progress.pbar { grid-column: 3; }
.rows > li > .acts { grid-column: 4; }
@media (max-width: 40rem) {
  .toolbar { justify-content: flex-start; }
  .toolbar .search { max-width: none; flex-basis: 100%; }
  .rows > li { grid-template-columns: auto minmax(0, 1fr) auto; padding: .5rem .2rem; }
  .rows .main { flex-wrap: wrap; }
  .rows .title { white-space: normal; flex-basis: 100%; }
  .rows > li > progress.pbar { grid-column: 2; grid-row: 2; width: 100%; }
  .rows > li > .acts { grid-column: 3; grid-row: 1; }
  .bulkbar .pair { flex-basis: 100%; }
  .bulkbar .sel-count { flex-basis: 100%; }
}
.empty { padding: 2rem 0; text-align: center; }
.pager { margin: 1.25rem 0; text-align: center; }
.toast { position: fixed; left: 50%; bottom: 1.25rem; transform: translateX(-50%); z-index: 10; max-width: calc(100vw - 2rem);
  padding: .6rem 1rem; border-radius: 8px; background: var(--fg); color: var(--bg); box-shadow: 0 6px 20px rgb(0 0 0 / .25); }
.toast:empty, .toast:not(.on) { opacity: 0; pointer-events: none; }
dialog#keys { border: 1px solid var(--line); border-radius: 12px; background: var(--card); color: var(--fg); padding: 1.25rem 1.5rem; max-width: min(28rem, calc(100vw - 2rem)); }
dialog#keys::backdrop { background: rgb(0 0 0 / .45); }
dialog#keys h2 { margin-top: 0; }
dl.keys { display: grid; grid-template-columns: max-content 1fr; gap: .45rem 1rem; margin: 0 0 .75rem; }
dl.keys dt { text-align: right; } dl.keys dd { margin: 0; }
.confirm-list { max-height: 18rem; overflow-y: auto; margin: .5rem 0 1rem; padding-left: 1.2rem; }
`;
