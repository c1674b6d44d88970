// Page furniture (ads, promos, share bars, comments, nav, footers): marked before Readability reads the
// intact page, then removed only from inside the story it chose, so a mislabelled wrapper never takes
// the article with it.

const NOISE_ATTR = "data-cp-noise";
const NOISE_TAGS = new Set(["ASIDE", "NAV", "FOOTER", "FORM", "IFRAME", "SCRIPT", "STYLE", "NOSCRIPT"]);
const NOISE_WORD =
  /^(?:ads?|adverts?|advertisements?|advertising|adslot|sponsors?|sponsored|promos?|promotions?|promoted|cookies?|newsletters?|subscribe|subscription|share|sharing|shares|social|related|comments?|disqus)$/;
// "ad" not inside a word ("header", "shadow"), "Ad" of camelCase, or the start of one of the other words.
const AD_HINT = /(?<![a-z])ad|Ad|AD/;
const WORD_HINT = /sponsor|promo|cookie|newsletter|subscri|shar|social|related|comment|disqus/i;
// "non-ad-column", "no-ads", "ad-free", "advertisement-off-canvas": the word is there, the meaning is not.
const NEGATES_NEXT = /^(?:non|no|not|without|anti)$/;
const NEGATES_PREVIOUS = /^(?:free|less|off)$/;
// An embedded post quoted by the story ("social-media-embed") is the story's material, not a share bar.
const STORY_MATERIAL = /^(?:embed|embeds|embedded|quote|blockquote)$/;
const MAIN_CANDIDATES = "article, main, [role=main], [itemprop=articleBody]";
// A candidate shorter than this is a teaser card, not the story, and earns no protection.
const MIN_MAIN_TEXT = 400;
// A marked block holding this share of the chosen text is the story under a misleading name.
const STORY_SHARE = 0.5;
// Below this share of link text, a marked list of this many characters reads as prose, not teasers.
const PROSE_LINK_DENSITY = 0.3;
const PROSE_LIST_TEXT = 200;

/** Splits one class name or id into lowercase words: "adSlot" → ad, slot; "non-ad-column-l" → non, ad, column, l. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether one class name or id names furniture, read word by word with its neighbours. */
function namesNoise(name: string): boolean {
  const w = nameWords(name);
  if (w.some((word) => STORY_MATERIAL.test(word))) return false;
  return w.some(
    (word, i) => NOISE_WORD.test(word) && !NEGATES_NEXT.test(w[i - 1] ?? "") && !NEGATES_PREVIOUS.test(w[i + 1] ?? ""),
  );
}

/** Each class name and the id are judged as whole tokens, never as one run-together string. */
export function looksLikeNoise(el: Element): boolean {
  if (NOISE_TAGS.has(el.tagName)) return true;
  const label = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  // Most names hold none of the words at all: one cheap test spares splitting every name of the page.
  if (!AD_HINT.test(label) && !WORD_HINT.test(label)) return false;
  return label.split(/\s+/).some((name) => name.length >= 2 && namesNoise(name));
}

/** Elements under `root` in document order, by an explicit stack: absurdly deep markup must not overflow the call stack. */
function* descendants(root: Element): Generator<Element> {
  const stack: Element[] = [];
  for (let el = root.lastElementChild; el; el = el.previousElementSibling) stack.push(el);
  for (let el = stack.pop(); el; el = stack.pop()) {
    yield el;
    for (let child = el.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  }
}

export interface TextSize {
  text: number;
  links: number;
}

/** Visible characters and characters inside links, for every element under `root`, in one pass. */
export function measure(root: Element): Map<Element, TextSize> {
  const sizes = new Map<Element, TextSize>();
  const order = [root, ...descendants(root)];
  // Children come after their parent in document order, so walking backwards sums them first.
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    const size = { text: 0, links: 0 };
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) size.text += (node.nodeValue ?? "").replace(/\s+/g, " ").trim().length;
      else if (node.nodeType === 1) {
        const child = sizes.get(node as Element);
        if (!child) continue;
        size.text += child.text;
        size.links += child.links;
      }
    }
    if (el.tagName === "A") size.links = size.text;
    sizes.set(el, size);
  }
  return sizes;
}

/** The element's only element child when it has no text of its own, which Readability may put in its place. */
function soleChild(el: Element): Element | null {
  const child = el.firstElementChild;
  if (!child || child.nextElementSibling) return null;
  for (let node = el.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3 && node.nodeValue?.trim()) return null;
  }
  return child;
}

/**
 * Marks every furniture-like element of the body, nested ones too; nothing is removed. A mark is
 * carried down a chain of sole children: Readability swaps a <div> for its lone <p> (and a one-cell
 * table for its cell), and the mark must survive the swap.
 */
export function markNoise(document: Document): number {
  if (!document.body) return 0;
  const sizes = measure(document.body);
  let marked = 0;
  for (const el of descendants(document.body)) {
    if (!looksLikeNoise(el)) continue;
    if (!NOISE_TAGS.has(el.tagName) && isProseList(el, sizes.get(el) ?? { text: 0, links: 0 })) {
      // Readability would weigh the name against the list and clean it out of the story: hide the name.
      el.removeAttribute("class");
      el.removeAttribute("id");
      continue;
    }
    for (let node: Element | null = el; node; node = soleChild(node)) node.setAttribute(NOISE_ATTR, "");
    marked++;
  }
  return marked;
}

/**
 * A list under a furniture name that reads as prose (enough text, few links, no form controls) is the
 * story's own list: a "promo-list" of fares in an article about fares, not a box of teasers.
 */
function isProseList(el: Element, size: TextSize): boolean {
  const list = el.tagName === "UL" || el.tagName === "OL" || el.querySelector("ul, ol") !== null;
  if (!list || size.text < PROSE_LIST_TEXT || size.links > size.text * PROSE_LINK_DENSITY) return false;
  return el.querySelector("form, input, button, select, textarea") === null;
}

/** Removes marked furniture inside `root` (Readability's choice), keeping marked blocks that are the story. */
export function dropMarkedNoise(root: Element): number {
  const sizes = measure(root);
  const total = sizes.get(root)?.text ?? 0;
  const doomed: Element[] = [];
  const stack: Element[] = [root];
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      const size = sizes.get(el) ?? { text: 0, links: 0 };
      // A marked block holding most of the chosen text is the story under a misleading name.
      if (el.hasAttribute(NOISE_ATTR) && size.text < total * STORY_SHARE) doomed.push(el);
      else stack.push(el);
    }
  }
  for (const el of doomed) el.remove();
  for (const el of root.querySelectorAll(`[${NOISE_ATTR}]`)) el.removeAttribute(NOISE_ATTR);
  return doomed.length;
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

/**
 * For pages Readability gives up on: strips noise from the whole body in place, sparing the longest
 * article-like element and the first <h1> with their ancestors. Returns how many elements went.
 */
export function stripNoise(document: Document): number {
  const body = document.body;
  if (!body) return 0;
  const keep = new Set<Element>();
  for (const start of [mainCandidate(document), document.querySelector("h1")]) {
    for (let el = start; el; el = el.parentElement) keep.add(el);
  }
  const doomed: Element[] = [];
  const stack: Element[] = [body];
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      if (!keep.has(el) && looksLikeNoise(el)) doomed.push(el);
      else stack.push(el);
    }
  }
  for (const el of doomed) el.remove();
  return doomed.length;
}
