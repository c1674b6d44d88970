// Pages of Settings: the index of every settings page, and Account (plan, credits, spending, password).
import type { Plan } from "../config.ts";
import type { Balance } from "../features/credits/service.ts";
import { html, layout, type Flash, type LayoutUser, type SafeHtml } from "../http/html/html.ts";
import { csrfInput, day, when } from "./library/common.ts";
import { field, type FieldErrors } from "./pages.ts";

const SETTINGS: [href: string, name: string, what: string][] = [
  [
    "/settings/account",
    "Account",
    "Your plan, the credits left this period, what they were spent on, and your password.",
  ],
  ["/settings/keys", "API keys", "Keys that let scripts and tools use your library over the API."],
  ["/api/docs", "API reference", "Every endpoint of the API with its fields and examples, for scripts and tools."],
  ["/settings/webhook-tokens", "Webhook tokens", "Addresses other services post to, to start your workflows."],
  ["/feeds", "Feeds", "The feeds you follow and those your workflows watch, and when each was last checked."],
  ["/settings/apps", "Connected apps", "AI clients you allowed to use your library over MCP."],
  [
    "/settings/extension",
    "Browser extension",
    "Save pages from Chromium or Firefox with one click, or from any browser with a bookmarklet.",
  ],
  ["/settings/outbox", "Outbox", "Emails your workflows wrote while no mail server is set up."],
  [
    "/settings/import-export",
    "Import and export",
    "Bring in bookmarks, Pocket, Omnivore, Karakeep, OPML or a list of links; download everything.",
  ],
  [
    "/settings/search-quality",
    "Search quality",
    "How well search finds your own sources by title, heading or a paraphrase, by words, meaning or both.",
  ],
];

export function settingsIndexPage(p: { user: LayoutUser }): SafeHtml {
  const body = html`<h1>Settings</h1>
<p class="muted">Signed in as ${p.user.email}.</p>
<ul class="settings-list">${SETTINGS.map(
    ([href, name, what]) => html`<li><a href="${href}">${name}</a><p class="muted">${what}</p></li>`,
  )}</ul>`;
  return layout({ title: "Settings", user: p.user, body });
}

export interface SpendView {
  at: string;
  amount: number;
  /** What the credits paid for, in words. */
  what: string;
  href?: string;
}

export interface AccountPageInput {
  user: LayoutUser;
  memberSince: string;
  plan: Plan;
  balance: Balance;
  spends: SpendView[];
  costs: { ask: number; podcastPerMinute: number };
  fieldErrors?: FieldErrors;
  /** The "Also revoke my API keys" box as the person left it; ticked when the form is new. */
  revokeKeys?: boolean;
  flash?: Flash;
}

const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;

function spendRows(spends: SpendView[]): SafeHtml {
  if (!spends.length)
    return html`<p class="muted">No credits spent yet. Asking a question or making a podcast spends them.</p>`;
  return html`<table>
  <thead><tr><th>When</th><th>What</th><th>Credits</th></tr></thead>
  <tbody>${spends.map(
    (x) => html`<tr>
    <td data-label="When">${when(x.at)}</td>
    <td data-label="What">${x.href ? html`<a href="${x.href}">${x.what}</a>` : x.what}</td>
    <td data-label="Credits">${x.amount}</td>
  </tr>`,
  )}</tbody>
</table>`;
}

export function accountPage(p: AccountPageInput): SafeHtml {
  const b = p.balance;
  const fe = p.fieldErrors ?? {};
  const body = html`<h1>Account</h1>
<section class="card" aria-labelledby="credits-heading">
  <h2 id="credits-heading">Plan and credits</h2>
  <p><strong>${p.plan.name}</strong> plan: ${credits(b.allowance)} a month.</p>
  <label for="credits-used">Credits used this period</label>
  <meter id="credits-used" min="0" max="${Math.max(1, b.allowance)}" value="${b.used}">${b.used} of ${b.allowance}</meter>
  <dl class="facts">
    <dt>Used</dt><dd id="credits-used-count">${b.used}</dd>
    <dt>Remaining</dt><dd id="credits-remaining">${b.remaining}</dd>
    <dt>This period</dt><dd>${day(b.period_start)} to ${day(b.period_end)}</dd>
    <dt>Renews</dt><dd>${when(b.period_end)}</dd>
  </dl>
  <p class="muted">A question costs ${credits(p.costs.ask)}; a podcast costs ${credits(p.costs.podcastPerMinute)} per minute of audio, charged when it is ready.</p>
</section>
<h2>Recent spending</h2>
${spendRows(p.spends)}
<h2>Change password</h2>
<form method="post" action="/settings/account/password" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  ${field({ name: "current_password", label: "Current password", type: "password", error: fe.current_password, autocomplete: "current-password", required: true, autofocus: Boolean(fe.current_password) })}
  ${field({ name: "new_password", label: "New password", type: "password", error: fe.new_password, autocomplete: "new-password", required: true, autofocus: Boolean(fe.new_password && !fe.current_password), hint: "At least 8 characters. Other browsers and devices signed in as you are signed out and connected apps lose their access; this one stays signed in." })}
  <label class="check"><input type="checkbox" name="revoke_keys" value="1"${p.revokeKeys === false ? "" : html` checked`}> <span>Also revoke my API keys <span class="muted">(scripts and tools using one stop working until you give them a new key)</span></span></label>
  <div class="actions"><button type="submit">Change password</button></div>
</form>
<h2>Sign out everywhere</h2>
<form method="post" action="/settings/account/sign-out-everywhere" class="card">
  ${csrfInput(p.user.csrfToken)}
  <p class="muted">Ends every session of yours — on this browser too — and the access of every connected app. API keys keep working; revoke them under <a href="/settings/keys">API keys</a>.</p>
  <div class="actions"><button type="submit">Sign out everywhere</button></div>
</form>
<h2>You</h2>
<dl class="facts">
  <dt>Name</dt><dd>${p.user.name}</dd>
  <dt>Email</dt><dd>${p.user.email}</dd>
  <dt>Member since</dt><dd>${day(p.memberSince)}</dd>
</dl>`;
  return layout({ title: "Account", user: p.user, body, flash: p.flash });
}
