// Settings → Outbox: the emails a user's workflows kept (the mail_outbox table) because no SMTP server
// is configured, listed and readable in the browser.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import type { OutboxMessage } from "../features/mail/outbox-reader.ts";
import { html, layout, pageResponse, type LayoutUser } from "../http/html/html.ts";
import type { WebHelpers } from "./oauth-routes.ts";
import { signInFirst } from "./http.ts";

function listPage(user: LayoutUser, messages: OutboxMessage[], smtp: boolean) {
  const note = smtp
    ? html`<p class="muted">An SMTP server is configured, so new emails are sent; these were written before it was.</p>`
    : html`<p class="muted">No SMTP server is configured (<code>SMTP_URL</code>), so emails from your workflows' <code>send_email</code> steps are kept here instead of being sent.</p>`;
  const list = messages.length
    ? html`<table><thead><tr><th>Date</th><th>To</th><th>Subject</th></tr></thead><tbody>${messages.map(
        (
          m,
        ) => html`<tr><td data-label="Date">${m.date.replace("T", " ").slice(0, 16)}</td><td data-label="To">${m.to}</td>
<td data-label="Subject"><a href="/settings/outbox/${m.name}">${m.subject || "(no subject)"}</a></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">The outbox is empty.</p>`;
  return layout({ title: "Outbox", user, body: html`<h1>Outbox</h1>${note}${list}` });
}

function messagePage(user: LayoutUser, name: string, eml: string) {
  const body = html`<p><a href="/settings/outbox">← Outbox</a></p><h1>${name}</h1>
<p><a href="/settings/outbox/${name}?download=1">Download .eml</a></p>
<pre class="eml">${eml}</pre>`;
  return layout({ title: name, user, body });
}

export function outboxWebRoutes(s: Pick<WebDeps, "config" | "mail">, h: WebHelpers) {
  const reader = s.mail.outbox;
  return (
    new Elysia()
      // GET /settings/outbox
      .get(
        "/settings/outbox",
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst("/settings/outbox");
          return pageResponse(
            listPage(h.layoutUser(me), await reader.list(me.user.id), Boolean(s.config.mail.smtpUrl)),
          );
        }),
      )
      // GET /settings/outbox/:name
      .get(
        "/settings/outbox/:name",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          const name = params.name ?? "";
          if (!me) return signInFirst(`/settings/outbox/${name}`);
          const eml = await reader.read(me.user.id, name);
          if (eml === undefined) throw new AppError("not_found", "No such message in your outbox");
          if (query.download) {
            return new Response(eml, {
              headers: {
                "content-type": "message/rfc822",
                "content-disposition": `attachment; filename="${name}"`,
                "cache-control": "no-store",
              },
            });
          }
          return pageResponse(messagePage(h.layoutUser(me), name, eml));
        }),
      )
  );
}
