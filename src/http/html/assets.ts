// The web app's only stylesheet and script, inlined and allowed by hash in the page's CSP.
export const STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5d6470; --bg: #fbfbfa; --card: #fff; --line: #dcdfe4;
  --accent: #2952cc; --danger: #b3261e; --ok-bg: #e7f4ea; --err-bg: #fdecea; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7e9ee; --muted: #a1a8b3; --bg: #15171b; --card: #1d2026;
  --line: #343843; --accent: #8aa8ff; --danger: #ff8a80; --ok-bg: #1e3325; --err-bg: #3a1f1d; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header { border-bottom: 1px solid var(--line); background: var(--card); }
.bar { max-width: 52rem; margin: 0 auto; padding: .6rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); margin-right: auto; }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; }
nav form { margin: 0; }
nav a[aria-current=page] { color: var(--fg); font-weight: 650; text-decoration-thickness: 2px; text-underline-offset: .35em; }
nav a:not([aria-current]) { text-decoration: none; }
nav a:not([aria-current]):hover { text-decoration: underline; }
.skip { position: absolute; left: -9999px; top: .5rem; z-index: 20; background: var(--card); color: var(--accent);
  padding: .5rem .8rem; border: 2px solid var(--accent); border-radius: 6px; }
.skip:focus { left: .5rem; }
main:focus { outline: none; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
main.narrow { max-width: 26rem; }
/* A long unbroken word (an app's chosen name, an address, a notebook's name in a flex row) wraps
   instead of widening the page: "anywhere" also lets flex and grid items shrink below such a word. */
main { overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
p.muted, .muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; }
label { display: block; font-weight: 600; margin: .9rem 0 .3rem; }
input[type=text], input[type=email], input[type=password] { width: 100%; padding: .55rem .65rem; font: inherit;
  color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
input:focus, select:focus, button:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
select, input[type=file] { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 6px; padding: .45rem .6rem; max-width: 100%; }
input[aria-invalid=true] { border-color: var(--danger); }
.field-error { color: var(--danger); font-size: .9rem; margin: .25rem 0 0; }
.field-hint { font-size: .9rem; margin: .3rem 0 0; }
.form-error { color: var(--danger); background: var(--err-bg); border-radius: 6px; padding: .6rem .8rem; margin: 0 0 .25rem; }
/* A checkbox and its words: the box on the first line, wrapped words under the words, not under the box. */
label.check { display: flex; gap: .35rem; align-items: baseline; font-weight: 400; }
:where(label.check) > input { flex: none; }
label .muted { font-weight: 400; }
input[type=radio], input[type=checkbox] { accent-color: var(--accent); }
button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent);
  color: #fff; cursor: pointer; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
button.danger { background: none; color: var(--danger); border-color: var(--danger); padding: .25rem .7rem; }
.actions { margin-top: 1.1rem; display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
.inline { display: flex; gap: .5rem; align-items: flex-end; flex-wrap: wrap; }
.inline > div { flex: 1 1 14rem; }
.inline label { margin-top: 0; }
.flash { padding: .7rem 1rem; border-radius: 6px; margin-bottom: 1rem; background: var(--ok-bg); }
.flash.error { background: var(--err-bg); }
.secret { display: flex; gap: .5rem; margin: .5rem 0; }
.secret input { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
code, .hint { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .55rem .5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
td form { margin: 0; }
.way-on li, .settings-list li { margin: .35rem 0; }
.settings-list { list-style: none; padding: 0; }
.settings-list li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
.settings-list a { font-weight: 600; }
.settings-list p { margin: .15rem 0 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1.25rem; margin: .75rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
dl.facts time { white-space: nowrap; }
.card > h2:first-child { margin-top: .25rem; }
.card + .card { margin-top: 1rem; }
@media (prefers-color-scheme: dark) { button:not(.link):not(.danger):not(.secondary) { color: #15171b; } }
meter, progress { width: 100%; height: 1.1rem; }
[data-live-deleted] { opacity: .55; }
[data-live-deleted] .title { text-decoration: line-through; }
/* The live script's announcements: read out, not shown. */
.live-announcer { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) {
  thead { display: none; }
  tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  td { display: flex; gap: .5rem; border: none; padding: .15rem 0; overflow-wrap: anywhere; }
  td[data-label]::before { content: attr(data-label); color: var(--muted); min-width: 6.5rem; }
}
`;

// Progressive enhancement only: every page works without it.
export const SCRIPT = `
(function () {
  var buttons = document.querySelectorAll("[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        target.focus();
        target.select();
        var done = function () { button.textContent = "Copied"; };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(target.value).then(done, function () { document.execCommand("copy"); done(); });
        } else {
          document.execCommand("copy");
          done();
        }
      });
    })(buttons[i]);
  }
  // A page that answers a form POST: make a reload a plain GET (of the path it names, else this one) instead of a resubmission.
  var answer = document.querySelector("[data-replace-history]");
  if (answer) history.replaceState(null, "", answer.getAttribute("data-replace-history") || location.pathname);
  // The installable app's service worker keeps only the app shell (see /sw.js); pages work without it.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  // "/" jumps to the field marked data-shortcut="/" unless the person is typing somewhere already.
  var jump = document.querySelector('[data-shortcut="/"]');
  if (jump) {
    var hints = document.querySelectorAll("[data-shortcut-hint]");
    for (var h = 0; h < hints.length; h++) hints[h].hidden = false;
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      var t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      e.preventDefault();
      jump.focus();
      if (jump.select) jump.select();
    });
  }
  // A form marked data-autosubmit is sent once as the page opens (not again when it is reached by Back).
  var auto = document.querySelector("form[data-autosubmit]");
  if (auto) {
    var entry = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    if (!entry || entry.type !== "back_forward") auto.submit();
  }
  // Close buttons for a window a bookmarklet opened, also in cards live updates swap in later (so the
  // click is handled on the document and new buttons are shown as they arrive); without script the
  // page says to close it.
  if (document.querySelector("[data-close]")) {
    var showClosers = function () {
      var closers = document.querySelectorAll("[data-close][hidden]");
      for (var c = 0; c < closers.length; c++) closers[c].hidden = false;
    };
    showClosers();
    document.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest("[data-close]")) window.close();
    });
    if (window.MutationObserver) new MutationObserver(showClosers).observe(document.body, { childList: true, subtree: true });
  }
})();
`;

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
let csp: string | undefined;

/** Only our own inline style and scripts may run; nothing is loaded from anywhere else. */
export function contentSecurityPolicy(): string {
  csp ??= [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    // 'self' admits the scripts served under /assets (live updates); every response is nosniff.
    `script-src ${sha256(SCRIPT)} 'self'`,
    "connect-src 'self'",
    // The installable app: its manifest and its service worker (/sw.js), both from this site.
    "manifest-src 'self'",
    "worker-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  return csp;
}
