// HTML pages → readable Markdown and metadata: parse once, pin <base>, mark noise, Readability, drop noise
// and bylines/credits, Turndown.
import { Readability } from "@mozilla/readability";
import { toRfc3339 } from "./dates.ts";
import { dropInertBlocks, parseDocument, pinBase, resolveUrl } from "./dom.ts";
import { countWords, nodeToMarkdown } from "./markdown.ts";
import { normalizeLanguage, type PageMeta, readPageMeta } from "./metadata.ts";
import { dropStoryFurniture } from "./furniture.ts";
import { dropMarkedNoise, markNoise, stripNoise } from "./noise.ts";
import { ExtractError, type Extracted } from "./types.ts";
import { cleanText as text, hostname, truncate } from "./util.ts";

type Article = NonNullable<ReturnType<Readability<Element>["parse"]>>;

const EXCERPT_MAX = 300;

function cleanByline(value: string | null | undefined): string | null {
  const byline = text(value)?.replace(/^by\s+/i, "") ?? null;
  return byline && !/^https?:\/\//i.test(byline) ? byline : null;
}

const SITE_SEPARATOR = /^\s*[|\-–—:·•»/]\s/;

/** "Headline – Site name" → "Headline" when the page's <h1> says the headline alone. */
function withoutSiteSuffix(title: string | null, h1: string | null): string | null {
  if (!title || !h1 || h1.length >= title.length) return title;
  if (title.startsWith(h1) && SITE_SEPARATOR.test(title.slice(h1.length))) return h1;
  if (title.endsWith(h1) && SITE_SEPARATOR.test([...title.slice(0, -h1.length)].reverse().join(""))) return h1;
  return title;
}

function runReadability(document: Document): Article | null {
  try {
    return new Readability<Element>(document, { serializer: (el) => el as Element, keepClasses: true }).parse();
  } catch {
    // Readability on a strange DOM may throw; the body-text fallback still applies.
    return null;
  }
}

function parse(html: string): Document {
  try {
    return parseDocument(html);
  } catch (error) {
    throw new ExtractError(
      "malformed_document",
      `the HTML could not be parsed: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** The cleaned body of a fresh parse: Readability rewrites the DOM it reads, so ours is spoilt by then. */
function bodyMarkdown(html: string, url: string): string {
  const document = parseDocument(html);
  pinBase(document, url);
  stripNoise(document);
  return document.body ? nodeToMarkdown(document.body) : "";
}

/** The preview image as an absolute http(s) address, or null. */
function previewImage(raw: string | null, base: string): string | null {
  const url = raw && !/^\s*data:/i.test(raw) ? resolveUrl(raw, base) : null;
  return url && /^https?:\/\//i.test(url) ? url : null;
}

function metadata(article: Article | null, page: PageMeta, url: string, markdown: string): Extracted {
  return {
    title: withoutSiteSuffix(text(article?.title) ?? page.ogTitle ?? page.title ?? page.h1, page.h1),
    byline: cleanByline(article?.byline) ?? cleanByline(page.author),
    siteName: text(article?.siteName) ?? page.siteName ?? hostname(url),
    language: page.language ?? normalizeLanguage(article?.lang),
    publishedAt: toRfc3339(article?.publishedTime) ?? page.publishedAt,
    excerpt: truncate(article?.excerpt ?? page.description, EXCERPT_MAX),
    wordCount: countWords(markdown),
    markdown,
    image: page.image,
  };
}

export function extractHtml(raw: string, url: string): Extracted {
  const html = dropInertBlocks(raw);
  const document = parse(html);
  const base = pinBase(document, url);
  const meta = readPageMeta(document);
  const page = { ...meta, image: previewImage(meta.image, base) };
  // Readability chooses on the intact page; noise removed first once took the story with it.
  markNoise(document);
  const article = runReadability(document);
  let markdown = "";
  let bodyByline: string | null = null;
  if (article?.content && text(article.textContent)) {
    dropMarkedNoise(article.content);
    bodyByline = dropStoryFurniture(article.content).byline;
    markdown = nodeToMarkdown(article.content);
  }
  if (!markdown) markdown = bodyMarkdown(html, url);
  if (!markdown) throw new ExtractError("empty_content", "the page has no readable text");
  return metadata(article, { ...page, author: page.author ?? bodyByline }, url, markdown);
}
