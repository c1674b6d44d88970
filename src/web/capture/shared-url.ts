// What a phone's share sheet hands over (title, text, url) read as one link and a title. Apps differ:
// Chrome puts the page in `url`; many Android apps put "Some title https://…" in `text` and no `url`.
export interface Shared {
  /** The link to save, or "" when none was found. */
  url: string;
  title: string;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/i;
/** Punctuation that ends a sentence rather than the link ("see https://x.org/a."). */
const TRAILING = /[.,;:!?)\]}»”’]+$/;

function firstLink(text: string): string {
  const m = URL_IN_TEXT.exec(text);
  if (!m) return "";
  let link = m[0];
  const count = (c: string) => link.split(c).length - 1;
  // A closing parenthesis belongs to the link when the link opens one too (Wikipedia's "Foo_(bar)").
  while (TRAILING.test(link) && !(link.endsWith(")") && count("(") >= count(")"))) link = link.slice(0, -1);
  return link;
}

const isHttp = (s: string) => /^https?:\/\//i.test(s.trim());

/**
 * The first http(s) link in `url`, then in `text` (else `url` as given, for the service to say what is
 * wrong with it); the title as given, else what `text` says besides its links.
 */
export function readShared(q: { title?: string; text?: string; url?: string }): Shared {
  const [rawUrl, text, title] = [q.url?.trim() ?? "", q.text?.trim() ?? "", q.title?.trim() ?? ""];
  const url = (isHttp(rawUrl) ? rawUrl : firstLink(rawUrl) || firstLink(text)) || rawUrl;
  // The words around the links, when the text has any (a link alone is not a title).
  const rest = text.replace(new RegExp(URL_IN_TEXT.source, "gi"), "").trim();
  return { url, title: title || (rest.length <= 500 ? rest.replace(/\s+/g, " ") : "") };
}
