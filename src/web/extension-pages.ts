// Pages of the browser extension: the approval a connecting extension opens, the page it lands on
// (which carries the key in its fragment), and Settings → Browser extension (downloads, bookmarklet).
import { html, layout, raw, type LayoutUser, type SafeHtml } from "../http/html/html.ts";
import { csrfInput } from "./library/common.ts";

/** What every key an extension gets is called: the label its browser gave, after this prefix. */
export const EXTENSION_KEY_PREFIX = "Browser extension — ";
const MAX_LABEL = 60;

/**
 * The label a connecting extension sent ("Chromium on Linux"), kept to printable text: letters,
 * marks, digits, punctuation, symbols and plain spaces. Control, format (bidi overrides, zero-width)
 * and separator characters go, runs of space become one, and it is cut to 60 characters.
 */
export function extensionLabel(raw: string | undefined): string {
  const printable = (raw ?? "")
    .normalize("NFC")
    .replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
  return [...printable].slice(0, MAX_LABEL).join("").trim() || "Unnamed browser";
}

export function connectPage(p: { user: LayoutUser; label: string; formId: string }): SafeHtml {
  const name = `${EXTENSION_KEY_PREFIX}${p.label}`;
  const body = html`<h1>Connect the browser extension?</h1>
<section class="card" aria-labelledby="connect-ask">
  <p id="connect-ask"><strong>${name}</strong> wants to save to your library.</p>
  <p>You are signed in as <strong>${p.user.email}</strong>. If you approve, the extension gets its own API key named “${name}”.</p>
  <h2>With it the extension will</h2>
  <ul>
    <li>save the pages you choose, with their text as your browser shows them;</li>
    <li>add them to notebooks, tag them and start quick podcasts;</li>
    <li>save highlights, and mark pages you have already saved.</li>
  </ul>
  <p class="muted">Like any API key it acts as you. The extension named itself; Commonplace cannot check the name. Approve only if you just chose Connect in the extension. You can revoke the key at any time under Settings → API keys.</p>
  <form method="post" action="/extension/connect">
    ${csrfInput(p.user.csrfToken)}
    <input type="hidden" name="client" value="${p.label}">
    <input type="hidden" name="form_id" value="${p.formId}">
    <div class="actions">
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="cancel" class="link">Cancel</button>
    </div>
  </form>
</section>`;
  return layout({ title: "Connect the browser extension", user: p.user, body, narrow: true });
}

/**
 * Shows the message the fragment asks for; it never reads the key, and sends nothing anywhere (the
 * extension reads the fragment from the tab it opened, then closes the tab).
 */
export const CONNECTED_SCRIPT = `
(function () {
  if (!/^#error=/.test(location.hash)) return;
  document.getElementById("connect-ok").hidden = true;
  document.getElementById("connect-denied").hidden = false;
  document.title = "Not connected · Commonplace";
})();
`;

export function connectedPage(p: { user: LayoutUser | null }): SafeHtml {
  const body = html`<section id="connect-ok" aria-labelledby="connect-ok-title">
  <h1 id="connect-ok-title">Connected — you can close this tab</h1>
  <p>The extension has its key and closes this tab by itself (if it does not, close it yourself). Save a page with the extension's toolbar button.</p>
  <p class="muted">To disconnect it later, revoke its key under <a href="/settings/keys">Settings → API keys</a>.</p>
</section>
<section id="connect-denied" aria-labelledby="connect-denied-title" hidden>
  <h1 id="connect-denied-title">Not connected</h1>
  <p>You cancelled, so no key was made. You can close this tab, and connect again from the extension whenever you like.</p>
</section>
<script>${raw(CONNECTED_SCRIPT)}</script>`;
  return layout({ title: "Connected", user: p.user, body, narrow: true });
}

export interface ZipView {
  name: string;
  /** Bytes, or null when the extension was not built on this server. */
  size: number | null;
}

const kb = (n: number) => `${Math.max(1, Math.round(n / 1024))} KB`;

function download(z: ZipView): SafeHtml {
  if (z.size === null)
    return html`<p class="muted">Not built on this server yet: run <code>bun run build:extension</code> where Commonplace is installed, then reload this page.</p>`;
  return html`<p><a href="/extension/${z.name}" download>Download ${z.name}</a> <span class="muted">(${kb(z.size)})</span></p>`;
}

/** A bookmark that opens the save window for the page it is clicked on. */
export function bookmarklet(baseUrl: string): string {
  const save = `${baseUrl}/save?url=`;
  return `javascript:(function(){window.open(${JSON.stringify(save)}+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title),'commonplace','width=480,height=600');})();`;
}

export function extensionSettingsPage(p: {
  user: LayoutUser;
  chromium: ZipView;
  firefox: ZipView;
  baseUrl: string;
}): SafeHtml {
  const code = bookmarklet(p.baseUrl);
  const connect = html`<li>Click the Commonplace button in the toolbar, enter this server's address <code>${p.baseUrl}</code> and choose <strong>Connect</strong>. A tab opens here for you to approve it.</li>`;
  const body = html`<h1>Browser extension</h1>
<p class="muted">Save the page you are reading with one click, with its text as your browser shows it (pages behind a sign-in too), add it to notebooks, and highlight passages.</p>
<section class="card" aria-labelledby="chromium">
  <h2 id="chromium">Chromium, Chrome, Edge and Brave</h2>
  ${download(p.chromium)}
  <ol>
    <li>Unzip the file.</li>
    <li>Open <code>chrome://extensions</code> and turn on <strong>Developer mode</strong>.</li>
    <li>Choose <strong>Load unpacked</strong> and pick the unzipped folder, or drag the folder onto the page.</li>
    ${connect}
  </ol>
</section>
<section class="card" aria-labelledby="firefox">
  <h2 id="firefox">Firefox</h2>
  ${download(p.firefox)}
  <ol>
    <li>Open <code>about:debugging</code> and choose <strong>This Firefox</strong>.</li>
    <li>Choose <strong>Load Temporary Add-on…</strong> and pick the zip file.</li>
    ${connect}
  </ol>
  <p class="muted">Firefox removes a temporary add-on when it restarts; load it again after a restart.</p>
</section>
<section class="card" aria-labelledby="bookmarklet">
  <h2 id="bookmarklet">Bookmarklet</h2>
  <p>In any browser, without installing anything: drag this link to your bookmarks bar, then click the bookmark on a page to save it.</p>
  <p><a href="${code}">Save to Commonplace</a></p>
  <label for="bookmarklet-code">Or copy it into a new bookmark's address (on a phone, for instance)</label>
  <div class="secret">
    <input type="text" id="bookmarklet-code" value="${code}" readonly autocomplete="off" spellcheck="false">
    <button type="button" data-copy="bookmarklet-code" hidden>Copy</button>
  </div>
</section>
<h2 id="connected">Connected browsers</h2>
<p>Each browser you connect gets an API key named “${EXTENSION_KEY_PREFIX}…”. To disconnect one, revoke its key under <a href="/settings/keys">API keys</a>.</p>`;
  return layout({ title: "Browser extension", user: p.user, body });
}
