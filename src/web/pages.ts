// The web app's pages as functions of plain data: sign in, sign up, API keys.
import type { KeyPublic } from "../features/keys/schema.ts";
import { html, layout, type Flash, type LayoutUser, type SafeHtml } from "../http/html/html.ts";

export type FieldErrors = Record<string, string>;

export interface FieldInput {
  name: string;
  label: string;
  type: "text" | "email" | "password";
  value?: string;
  error?: string;
  autocomplete: string;
  required?: boolean;
  hint?: string;
  maxlength?: number;
  /** Focus (and so scroll to) this field when the page loads: the first field with an error. */
  autofocus?: boolean;
}

export function field(f: FieldInput): SafeHtml {
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : "", f.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${id}">${f.label}</label>
    <input id="${id}" name="${f.name}" type="${f.type}" value="${f.value ?? ""}" autocomplete="${f.autocomplete}"${f.required ? html` required` : ""}${f.maxlength ? html` maxlength="${f.maxlength}"` : ""}${f.autofocus ? html` autofocus` : ""}${f.error ? html` aria-invalid="true"` : ""}${described ? html` aria-describedby="${described}"` : ""}>
    ${f.hint ? html`<p class="muted field-hint" id="${id}-hint">${f.hint}</p>` : ""}
    ${f.error ? html`<p class="field-error" id="${id}-error">${f.error}</p>` : ""}`;
}

const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

export function signInPage(p: {
  csrf: string;
  email?: string;
  next?: string;
  error?: string;
  fieldErrors?: FieldErrors;
  signupOpen: boolean;
  flash?: Flash;
}): SafeHtml {
  const fe = p.fieldErrors ?? {};
  const body = html`<h1>Sign in</h1>
<p class="muted intro">Commonplace is your own library of what you read: save links from the browser or
your phone, read them as clean text, highlight and take notes, search by words or meaning, ask questions
answered from your sources with citations, and turn articles into podcast episodes.</p>
<form method="post" action="/signin" class="card" novalidate>
  ${csrfInput(p.csrf)}
  ${p.next ? html`<input type="hidden" name="next" value="${p.next}">` : ""}
  ${p.error ? html`<p class="form-error" role="alert">${p.error}</p>` : ""}
  ${field({ name: "email", label: "Email", type: "email", value: p.email, error: fe.email, autocomplete: "username", required: true })}
  ${field({ name: "password", label: "Password", type: "password", error: fe.password, autocomplete: "current-password", required: true })}
  <div class="actions"><button type="submit">Sign in</button></div>
</form>
${p.signupOpen ? html`<p class="muted">New here? <a href="${p.next ? `/signup?next=${encodeURIComponent(p.next)}` : "/signup"}">Create an account</a>.</p>` : ""}`;
  return layout({ title: "Sign in", body, flash: p.flash, narrow: true });
}

export function signUpPage(p: {
  csrf: string;
  email?: string;
  name?: string;
  next?: string;
  error?: string;
  fieldErrors?: FieldErrors;
}): SafeHtml {
  const fe = p.fieldErrors ?? {};
  const body = html`<h1>Create an account</h1>
<form method="post" action="/signup" class="card" novalidate>
  ${csrfInput(p.csrf)}
  ${p.next ? html`<input type="hidden" name="next" value="${p.next}">` : ""}
  ${p.error ? html`<p class="form-error" role="alert">${p.error}</p>` : ""}
  ${field({ name: "name", label: "Name", type: "text", value: p.name, error: fe.name, autocomplete: "name", hint: "Optional; how Commonplace greets you.", maxlength: 100 })}
  ${field({ name: "email", label: "Email", type: "email", value: p.email, error: fe.email, autocomplete: "username", required: true })}
  ${field({ name: "password", label: "Password", type: "password", error: fe.password, autocomplete: "new-password", required: true, hint: "At least 8 characters." })}
  <div class="actions"><button type="submit">Create account</button></div>
</form>
<p class="muted">Already have an account? <a href="/signin">Sign in</a>.</p>`;
  return layout({ title: "Create an account", body, narrow: true });
}

export function signupClosedPage(): SafeHtml {
  const body = html`<h1>Sign-up is closed</h1>
<p>This server does not accept new accounts. Ask its administrator to create one for you.</p>
<p><a href="/signin">Sign in</a> if you already have an account.</p>`;
  return layout({ title: "Sign-up is closed", body, narrow: true });
}

function when(iso: string | null): SafeHtml {
  if (!iso) return html`<span class="muted">Never</span>`;
  const shown = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<time datetime="${iso}">${shown}</time>`;
}

function keyRow(k: KeyPublic, csrf: string): SafeHtml {
  return html`<tr>
  <td data-label="Name">${k.name}</td>
  <td data-label="Key"><span class="hint">${k.hint}</span></td>
  <td data-label="Created">${when(k.created_at)}</td>
  <td data-label="Last used">${when(k.last_used_at)}</td>
  <td><form method="post" action="/settings/keys/${k.id}/revoke">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Revoke ${k.name}">Revoke</button></form></td>
</tr>`;
}

function newKeyPanel(k: { name: string; key: string }): SafeHtml {
  return html`<section class="card" data-replace-history>
  <h2>Your new key “${k.name}”</h2>
  <p>Copy it now and keep it somewhere safe. <strong>It will not be shown again.</strong></p>
  <div class="secret">
    <input type="text" id="new-key" value="${k.key}" readonly aria-label="The new API key" autocomplete="off" spellcheck="false">
    <button type="button" data-copy="new-key" hidden>Copy</button>
  </div>
</section>`;
}

export interface KeysPageInput {
  user: LayoutUser;
  keys: KeyPublic[];
  next: string | null;
  formId: string;
  name?: string;
  nameError?: string;
  newKey?: { name: string; key: string };
  flash?: Flash;
}

export function keysPage(p: KeysPageInput): SafeHtml {
  const list = p.keys.length
    ? html`<table>
  <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th><span class="muted">Revoke</span></th></tr></thead>
  <tbody>${p.keys.map((k) => keyRow(k, p.user.csrfToken))}</tbody>
</table>
${p.next ? html`<p><a href="/settings/keys?before=${p.next}">Older keys →</a></p>` : ""}`
    : html`<p class="muted">You have no API keys yet.</p>`;
  const body = html`<h1>API keys</h1>
<p class="muted">Scripts and tools act as you with a key, sent as <code>Authorization: Bearer cpk_…</code>. Revoking a key stops it at once.</p>
${p.newKey ? newKeyPanel(p.newKey) : ""}
<h2>Create a key</h2>
<form method="post" action="/settings/keys" class="inline" novalidate>
  ${csrfInput(p.user.csrfToken)}
  <input type="hidden" name="form_id" value="${p.formId}">
  <div>${field({ name: "name", label: "Name", type: "text", value: p.name, error: p.nameError, autocomplete: "off", required: true, maxlength: 100 })}</div>
  <button type="submit">Create key</button>
</form>
<h2>Your keys</h2>
${list}`;
  return layout({ title: "API keys", user: p.user, body, flash: p.flash });
}
