// Pages for OAuth: the consent page an app's authorization request lands on, and Settings →
// Connected apps, where the user sees and revokes the apps they allowed.
import { html, layout, type Flash, type LayoutUser, type SafeHtml } from "../http/html/html.ts";

const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

function when(iso: string | null): SafeHtml {
  if (!iso) return html`<span class="muted">Never</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

const LOOPBACK = /^(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?$/;

/** Where the browser goes next, said plainly: a loopback address is an app on this computer. */
function destination(host: string): SafeHtml {
  return LOOPBACK.test(host)
    ? html`<strong>${host}</strong>, an app running on your own computer`
    : html`<strong>${host}</strong>`;
}

export interface ConsentPageInput {
  user: LayoutUser;
  requestId: string;
  clientName: string;
  redirectHost: string;
}

export function consentPage(p: ConsentPageInput): SafeHtml {
  const body = html`<h1>Connect “${p.clientName}”?</h1>
<section class="card">
  <p><strong>${p.clientName}</strong> asks to use your Commonplace library as <strong>${p.user.email}</strong>.</p>
  <p>If you allow it, you will be sent back to ${destination(p.redirectHost)}.</p>
  <p class="muted">The app chose its own name; Commonplace cannot check it. Allow only if you started connecting this app yourself.</p>
  <h2>It will be able to</h2>
  <ul>
    <li>search your sources and notes, and ask questions about them (asking uses your AI credits);</li>
    <li>list and read your saved sources and notebooks;</li>
    <li>save new links and write notes.</li>
  </ul>
  <p class="muted">You can disconnect it at any time in Settings → Connected apps.</p>
  <form method="post" action="/oauth/consent">
    ${csrfInput(p.user.csrfToken)}
    <input type="hidden" name="request" value="${p.requestId}">
    <div class="actions">
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="link">Deny</button>
    </div>
  </form>
</section>`;
  return layout({ title: "Connect an app", user: p.user, body, narrow: true });
}

export interface ConnectedAppView {
  clientId: string;
  name: string;
  redirectHosts: string[];
  authorizedAt: string;
  lastUsedAt: string | null;
}

function appRow(a: ConnectedAppView, csrf: string): SafeHtml {
  return html`<tr>
  <td data-label="App">${a.name}</td>
  <td data-label="Returns to"><span class="hint">${a.redirectHosts.join(", ")}</span></td>
  <td data-label="Connected">${when(a.authorizedAt)}</td>
  <td data-label="Last used">${when(a.lastUsedAt)}</td>
  <td><form method="post" action="/settings/apps/${a.clientId}/revoke">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Revoke ${a.name}">Revoke</button></form></td>
</tr>`;
}

export function connectedAppsPage(p: { user: LayoutUser; apps: ConnectedAppView[]; flash?: Flash }): SafeHtml {
  const list = p.apps.length
    ? html`<table>
  <thead><tr><th>App</th><th>Returns to</th><th>Connected</th><th>Last used</th><th><span class="muted">Revoke</span></th></tr></thead>
  <tbody>${p.apps.map((a) => appRow(a, p.user.csrfToken))}</tbody>
</table>`
    : html`<p class="muted">No apps are connected. AI clients connect over MCP at <code>/mcp</code> and ask you here first.</p>`;
  const body = html`<h1>Connected apps</h1>
<p class="muted">Apps you allowed to use your library over MCP. Revoking an app signs it out at once; it must ask you again to reconnect.</p>
${list}`;
  return layout({ title: "Connected apps", user: p.user, body, flash: p.flash });
}
