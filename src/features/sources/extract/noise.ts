// Removes obvious page furniture (ads, banners, share bars, comments, nav, footers) before Readability runs.

const NOISE_TAGS = new Set(["ASIDE", "NAV", "FOOTER", "FORM", "IFRAME", "SCRIPT", "STYLE", "NOSCRIPT"]);
const NOISE_WORD =
  /^(?:ads?|adverts?|advertisements?|advertising|adslot|sponsors?|sponsored|promos?|promotions?|promoted|cookies?|newsletters?|subscribe|subscription|share|sharing|shares|social|related|comments?|disqus)$/;
const MAIN_CANDIDATES = "article, main, [role=main], [itemprop=articleBody]";
// A candidate shorter than this is a teaser card, not the story, and earns no protection.
const MIN_MAIN_TEXT = 400;

/** Splits class and id values into lowercase words: "adSlot top-banner" → ad, slot, top, banner. */
function words(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

function looksLikeNoise(el: Element): boolean {
  if (NOISE_TAGS.has(el.tagName)) return true;
  const label = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  if (label.length < 3) return false;
  return words(label).some((w) => NOISE_WORD.test(w));
}

/** The longest article-like element, if it is long enough to be the story itself. */
function mainCandidate(document: Document): Element | null {
  let best: Element | null = null;
  let bestLength = MIN_MAIN_TEXT;
  for (const el of document.querySelectorAll(MAIN_CANDIDATES)) {
    const length = el.textContent?.length ?? 0;
    if (length > bestLength) {
      best = el;
      bestLength = length;
    }
  }
  return best;
}

/** The story and the page's first <h1>, with every ancestor: a share-enabled wrapper is still the wrapper. */
function protectedNodes(document: Document): Set<Element> {
  const keep = new Set<Element>();
  for (const start of [mainCandidate(document), document.querySelector("h1")]) {
    for (let el = start; el; el = el.parentElement) keep.add(el);
  }
  return keep;
}

/** Noise under `root`, outermost only: a doomed element's subtree need not be looked at. */
function collectNoise(root: Element, keep: Set<Element>): Element[] {
  const doomed: Element[] = [];
  // An explicit stack: absurdly deep markup must not overflow the call stack.
  const stack: Element[] = [root];
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      if (!keep.has(el) && looksLikeNoise(el)) doomed.push(el);
      else stack.push(el);
    }
  }
  return doomed;
}

/** Strips noise from the body in place; returns how many elements went. */
export function stripNoise(document: Document): number {
  const body = document.body;
  if (!body) return 0;
  const doomed = collectNoise(body, protectedNodes(document));
  for (const el of doomed) el.remove();
  // Script-like tags in <head> feed nothing we read after metadata, but cost Readability time.
  for (const el of document.head?.querySelectorAll("script, style, noscript") ?? []) el.remove();
  return doomed.length;
}
