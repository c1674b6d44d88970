// The error page: what went wrong, the request id, and where to go next. Shared by the web app and
// the OAuth endpoints, which answer a browser with a page rather than JSON.
import { html, layout, type LayoutUser, type SafeHtml } from "./html.ts";

/** Where a lost person can go next: the main places when signed in, signing in otherwise. */
function wayOn(user: LayoutUser | null | undefined): SafeHtml {
  const links = user
    ? [
        ["/library", "Your library"],
        ["/search", "Search and ask"],
        ["/notebooks", "Notebooks"],
        ["/settings", "Settings"],
      ]
    : [
        ["/signin", "Sign in"],
        ["/signup", "Create an account"],
      ];
  return html`<ul class="way-on">${links.map(([href, text]) => html`<li><a href="${href}">${text}</a></li>`)}</ul>`;
}

export function errorPage(p: {
  status: number;
  title: string;
  detail: string;
  user?: LayoutUser | null;
  requestId?: string;
}): SafeHtml {
  const body = html`<h1>${p.title}</h1>
<p>${p.detail}</p>
<p class="muted">Error ${p.status}${p.requestId ? html` · request id <code>${p.requestId}</code>` : ""}</p>
<h2>Where to go from here</h2>
${wayOn(p.user)}`;
  return layout({ title: p.title, user: p.user, body });
}
