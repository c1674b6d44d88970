// The words a source's state is shown in, shared by the library's cards and the reader.
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, type SafeHtml } from "../../http/html/html.ts";

const FAILURES: Record<string, string> = {
  timeout: "the site took too long to answer",
  connect_timeout: "the site's address could not be looked up in time",
  dns_failure: "the site's address could not be found",
  network_error: "the connection to the site failed",
  blocked_address: "the address is on a private or local network, which this server does not fetch",
  too_large: "the page is larger than this server accepts",
  too_many_redirects: "the site redirected too many times",
  unsupported_content_type: "this kind of file cannot be read",
  unsupported_protocol: "only http and https links can be fetched",
  invalid_url: "the link is not a valid address",
  empty_content: "no readable text was found on the page",
  malformed_pdf: "the PDF could not be read",
  malformed_document: "the document could not be read",
  extraction_failed: "the text could not be extracted",
  extraction_timeout: "reading the page took too long and was stopped",
  too_complex: "the page is built too intricately to read safely",
  too_many_pages: "the PDF has more pages than this server reads",
};
const HTTP_WORDS: Record<number, string> = {
  401: "the site asks for a login",
  403: "the site refused access",
  404: "the page was not found",
  410: "the page is gone",
  429: "the site is rate limiting requests",
};

/** Why a source failed, in plain words (the code stays visible for searching and bug reports). */
export function failureWords(code: string | null): string {
  if (!code) return "fetching failed";
  const http = /^http_(\d{3})$/.exec(code);
  if (http) {
    const status = Number(http[1]);
    const words = HTTP_WORDS[status] ?? (status >= 500 ? "the site had an error" : "the site answered with an error");
    return `${words} (HTTP ${status})`;
  }
  return FAILURES[code] ?? code.replace(/_/g, " ");
}

export function statusBadge(s: Pick<SourcePublic, "status" | "error">): SafeHtml {
  if (s.status === "ready") return html`<span class="status ready">Ready</span>`;
  if (s.status === "pending") return html`<span class="status pending">Pending</span>`;
  return html`<span class="status failed" title="${s.error ?? ""}">Failed: ${failureWords(s.error)}</span>`;
}

/** Tags as links to the library filtered by each. */
export function tagLinks(tags: string[]): SafeHtml {
  if (!tags.length) return html``;
  return html`<span class="tags">${tags.map((t, i) => html`${i ? " " : ""}<a class="tag" href="/library?tag=${encodeURIComponent(t)}">#${t}</a>`)}</span>`;
}
