// The workflow, run, webhook-token and feed pages' stylesheet, their page frame and the CSP that admits it.
import { contentSecurityPolicy } from "../../http/html/assets.ts";
import { html, layout, pageResponse, raw, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { LIBRARY_STYLE } from "../library/style.ts";

export const FLOWS_STYLE = `
input[type=number] { width: 100%; padding: .55rem .65rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 6px; }
select { max-width: 100%; }
.editor .action { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1rem; padding: .5rem 1rem 1rem; min-width: 0; }
.editor .action .action { background: var(--bg); }
.editor .action > legend { font-size: 1.05rem; }
.editor ol.action-list { list-style: none; padding: 0; margin: .5rem 0 0; }
.editor .branch { border: 1px dashed var(--line); border-radius: 8px; padding: .25rem .75rem .75rem; margin: 1rem 0 0; min-width: 0; }
.editor .branch > legend { font-weight: 600; }
.tools { display: flex; flex-wrap: wrap; gap: .4rem; justify-content: flex-end; margin: .1rem 0 -.3rem; }
.editor textarea { min-height: 0; }
.editor textarea.short { min-height: 0; }
.editor #f-json { min-height: 20rem; }
.field > p.muted { margin: .25rem 0 0; font-size: .88rem; }
.trigger-sub { margin-left: 1.6rem; }
.editor label.check { margin-top: .7rem; }
.tools button, .add-row button, button.small { padding: .25rem .7rem; font-size: .9rem; }
.add-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; margin-top: .75rem; }
.add-row label { margin: 0 0 .2rem; font-weight: 400; font-size: .9rem; width: 100%; }
.clause { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1.2fr) minmax(0, 2fr) auto; gap: .5rem; align-items: end; margin: .4rem 0; }
.clause label { margin: 0 0 .2rem; font-size: .85rem; }
.clause .field-error { grid-column: 1 / -1; }
.grid2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 1rem; }
.vars { margin-top: .75rem; font-size: .9rem; }
.vars ul { margin: .3rem 0 0; padding-left: 1.1rem; columns: 2 14rem; }
.vars code { overflow-wrap: anywhere; }
/* The editor's lists of the user's notebooks and workflows, their filter and the template box beside them. */
.choice-list { list-style: none; margin: .3rem 0 0; padding: .2rem .6rem; max-height: 13.5rem; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
.editor .choice-list label.check { display: flex; margin: .25rem 0; overflow-wrap: anywhere; }
.editor .choices { border: none; padding: 0; margin: .9rem 0 0; }
.editor .choices > legend { padding: 0; margin-bottom: .1rem; }
.template-alt label { font-weight: 400; font-size: .9rem; margin: .45rem 0 .2rem; }
input.choice-filter { margin: 0 0 .35rem; }
.field select { width: 100%; }
.action-summary { margin: 0 0 .3rem; color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .88rem; overflow-wrap: anywhere; }
.error-summary { border: 2px solid var(--danger); border-radius: 8px; padding: .6rem 1rem; margin-bottom: 1rem; background: var(--err-bg); }
.error-summary h2 { margin: 0 0 .4rem; font-size: 1.05rem; }
.error-summary ul { margin: 0; padding-left: 1.1rem; }
.action-error { color: var(--danger); font-weight: 600; margin: .3rem 0; }
.sr-default { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
pre.json { overflow-x: auto; padding: .6rem .75rem; background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
  font-size: .85rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; max-width: 100%; }
details > summary { cursor: pointer; color: var(--accent); }
.step { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; min-width: 0; }
.cards { list-style: none; padding: 0; margin: 0; }
.step h3 { margin: 0 0 .35rem; font-size: 1.05rem; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.status.succeeded, .status.ok, .status.active { color: var(--fg); border-color: var(--accent); }
.status.running, .status.queued, .status.waiting, .status.pending { border-style: dashed; }
.status.failing, .status.inactive { color: var(--muted); }
.status.failing { color: var(--danger); border-color: var(--danger); }
.error-text { color: var(--danger); overflow-wrap: anywhere; }
.sub { display: block; font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
.hint { white-space: nowrap; }
.io { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 1rem; }
.io h4 { margin: .6rem 0 .2rem; }
td.wrap { overflow-wrap: anywhere; }
.status, button { white-space: nowrap; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; overflow-wrap: anywhere; }
button:disabled { opacity: .45; cursor: default; }
textarea[aria-invalid=true], select[aria-invalid=true] { border-color: var(--danger); }
textarea:focus, select:focus, summary:focus, a:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
/* The light accent of dark mode needs dark text on filled buttons to stay readable. */
@media (prefers-color-scheme: dark) { button:not(.secondary):not(.danger):not(.link) { color: #10131a; } }
@media (max-width: 40rem) {
  .clause { grid-template-columns: minmax(0, 1fr); border-bottom: 1px dashed var(--line); padding-bottom: .6rem; }
  .grid2, .io { grid-template-columns: minmax(0, 1fr); }
  .editor .action { padding: .4rem .6rem .8rem; }
  .editor .branch { padding: .25rem .4rem .6rem; }
  dl.facts { grid-template-columns: minmax(0, 1fr); }
  dl.facts dd { margin-bottom: .35rem; }
}
`;

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
let csp: string | undefined;

/** The app's policy plus the library stylesheet (forms, badges) and this one. */
export function flowsCsp(): string {
  csp ??= contentSecurityPolicy().replace("style-src ", `style-src ${sha256(LIBRARY_STYLE)} ${sha256(FLOWS_STYLE)} `);
  return csp;
}

export interface FlowsFrame {
  title: string;
  user: LayoutUser;
  body: SafeHtml;
  flash?: Flash;
  status?: number;
}

/** A page of this area: the app layout with both stylesheets and a CSP admitting them. */
export function flowsPage(f: FlowsFrame): Response {
  const body = html`<style>${raw(LIBRARY_STYLE)}</style><style>${raw(FLOWS_STYLE)}</style>
${f.body}`;
  const markup = layout({ title: f.title, user: f.user, body, flash: f.flash });
  return pageResponse(markup, { status: f.status, headers: { "content-security-policy": flowsCsp() } });
}
