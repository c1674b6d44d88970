// Page metadata that Readability may miss: meta tags, JSON-LD and <time>, read before anything is stripped.
import { toRfc3339 } from "./dates.ts";

export interface PageMeta {
  title: string | null;
  h1: string | null;
  ogTitle: string | null;
  author: string | null;
  siteName: string | null;
  language: string | null;
  description: string | null;
  publishedAt: string | null;
  /** og:image / twitter:image as written (resolved by the caller against the page's base). */
  image: string | null;
}

// One selector list, so the whole document is walked once however many facts we want from it.
const INTERESTING = "title, h1, meta, time[datetime], [itemprop=datePublished], script[type='application/ld+json']";
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;

interface Found {
  title?: Element;
  h1?: Element;
  metas: Map<string, string>;
  itemDate?: Element;
  articleTime?: Element;
  anyTime?: Element;
  jsonLd: Element[];
}

function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

function collect(document: Document): Found {
  const found: Found = { metas: new Map(), jsonLd: [] };
  for (const el of document.querySelectorAll(INTERESTING)) {
    const tag = el.tagName;
    if (el.hasAttribute("itemprop") && el.getAttribute("itemprop") === "datePublished") found.itemDate ??= el;
    if (tag === "META") {
      const key = (
        el.getAttribute("property") ??
        el.getAttribute("name") ??
        el.getAttribute("itemprop") ??
        `http-equiv:${el.getAttribute("http-equiv") ?? ""}`
      ).toLowerCase();
      const value = clean(el.getAttribute("content"));
      if (value && !found.metas.has(key)) found.metas.set(key, value);
    } else if (tag === "TIME" && el.hasAttribute("datetime")) {
      found.anyTime ??= el;
      if (!found.articleTime && el.closest("article")) found.articleTime = el;
    } else if (tag === "SCRIPT") found.jsonLd.push(el);
    else if (tag === "TITLE") found.title ??= el;
    else if (tag === "H1") found.h1 ??= el;
  }
  return found;
}

function meta(found: Found, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = found.metas.get(key);
    if (value) return value;
  }
  return null;
}

/** "en_US", "EN-gb, fr" → "en-US", "en-GB"; anything that is not a language tag → null. */
export function normalizeLanguage(value: string | null | undefined): string | null {
  const tag = value?.split(",")[0]?.trim().replace(/_/g, "-");
  if (!tag || !LANGUAGE_TAG.test(tag)) return null;
  const [primary = "", ...rest] = tag.split("-");
  return [primary.toLowerCase(), ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p))].join("-");
}

function jsonLdDate(scripts: Element[]): string | null {
  const nodes: Record<string, unknown>[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      nodes.push(value as Record<string, unknown>);
      visit((value as Record<string, unknown>)["@graph"]);
    }
  };
  for (const script of scripts) {
    try {
      visit(JSON.parse(script.textContent ?? ""));
    } catch {
      // Broken JSON-LD is common and never fatal: other sources of metadata remain.
    }
  }
  for (const node of nodes) {
    const date = toRfc3339(node.datePublished) ?? toRfc3339(node.dateCreated);
    if (date) return date;
  }
  return null;
}

function timeDate(el: Element | undefined): string | null {
  return toRfc3339(el?.getAttribute("datetime") ?? el?.getAttribute("content"));
}

function publishedAt(found: Found): string | null {
  return (
    toRfc3339(
      meta(
        found,
        "article:published_time",
        "og:article:published_time",
        "datepublished",
        "date",
        "dc.date",
        "dc.date.issued",
      ),
    ) ??
    jsonLdDate(found.jsonLd) ??
    timeDate(found.itemDate) ??
    timeDate(found.articleTime) ??
    timeDate(found.anyTime)
  );
}

function language(document: Document, found: Found): string | null {
  const root = document.documentElement;
  return (
    normalizeLanguage(root?.getAttribute("lang")) ??
    normalizeLanguage(root?.getAttribute("xml:lang")) ??
    normalizeLanguage(meta(found, "http-equiv:content-language")) ??
    normalizeLanguage(meta(found, "og:locale"))
  );
}

export function readPageMeta(document: Document): PageMeta {
  const found = collect(document);
  return {
    title: clean(found.title?.textContent),
    h1: clean(found.h1?.textContent),
    ogTitle: meta(found, "og:title", "twitter:title"),
    author: meta(found, "author", "article:author", "dc.creator", "byl"),
    siteName: meta(found, "og:site_name", "application-name"),
    language: language(document, found),
    description: meta(found, "description", "og:description", "twitter:description"),
    publishedAt: publishedAt(found),
    image: meta(found, "og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src"),
  };
}
