// Saving: read the page as the browser rendered it, send it with the link to the user's server
// (and nowhere else), add tags, write a quote note, follow a source until it is ready. Shared by
// the popup and the background (context menus, keyboard shortcut).
import {
  ApiError,
  createApi,
  refusedHtml,
  type Api,
  type Highlight,
  type Note,
  type PodcastFormat,
  type Source,
} from "./api.ts";
import { ext } from "./browser.ts";
import { loadSettings, saveSettings } from "./settings.ts";

/** An API client for the stored server and key; a 401 marks the connection lost for every view. */
export async function connectedApi(): Promise<{ api: Api; server: string }> {
  const { server, key } = await loadSettings();
  if (!server || !key) throw new ApiError({ kind: "not_connected" });
  const api = createApi({ server, key, onUnauthorized: () => saveSettings({ connection: "disconnected" }) });
  return { api, server };
}

export const isWebPage = (url: string | undefined): url is string => !!url && /^https?:\/\//i.test(url);

/** The tab's rendered HTML, or null where the browser lets no extension read (its own pages, stores, PDFs). */
export async function readPageHtml(tabId: number): Promise<string | null> {
  try {
    const [result] = await ext.scripting.executeScript({
      target: { tabId },
      func: () => document.documentElement.outerHTML,
    });
    return typeof result?.result === "string" ? result.result : null;
  } catch {
    return null;
  }
}

export interface SaveInput {
  url: string;
  title?: string;
  notebookIds?: string[];
  tags?: string[];
  podcast?: PodcastFormat | null;
  html?: string | null;
}

export interface SaveResult {
  source: Source;
  created: boolean;
  /** Set when the page's HTML was not taken and the server fetched the URL itself: why. */
  fetchedByServer?: string;
}

export async function saveSource(api: Api, input: SaveInput): Promise<SaveResult> {
  const body = {
    url: input.url,
    ...(input.title?.trim() ? { title: input.title.trim().slice(0, 500) } : {}),
    ...(input.notebookIds?.length ? { notebook_ids: input.notebookIds } : {}),
    ...(input.podcast ? { generate_quick_podcast: true, podcast_format: input.podcast } : {}),
  };
  let saved: { source: Source; created: boolean };
  let fetchedByServer: string | undefined;
  if (input.html) {
    try {
      saved = await api.createSource({ ...body, html: input.html });
    } catch (e) {
      // A server without browser capture, or a page over its size limit: the link still gets saved
      // and the server fetches it, and the UI says so.
      if (!refusedHtml(e)) throw e;
      fetchedByServer = (e as Error).message;
      saved = await api.createSource(body);
    }
  } else {
    saved = await api.createSource(body);
  }
  let { source } = saved;
  const tags = parseTags(input.tags ?? []);
  const merged = [...new Set([...source.tags, ...tags])];
  if (merged.length !== source.tags.length) source = await api.setTags(source.id, merged);
  return { source, created: saved.created, ...(fetchedByServer ? { fetchedByServer } : {}) };
}

/** "a, b ,,c" or ["a", " b"] → ["a", "b", "c"]: trimmed, non-empty, at most 100 characters each, unique. */
export function parseTags(input: string | string[]): string[] {
  const parts = typeof input === "string" ? input.split(",") : input;
  return [...new Set(parts.map((t) => t.trim().slice(0, 100)).filter(Boolean))];
}

/** A note quoting the selection, linked to the source through source_ids. */
export function quoteNote(selection: string, pageTitle: string | undefined, url: string) {
  const quote = selection
    .trim()
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");
  const name = pageTitle?.trim() || url;
  const link = `[${name.replace(/([[\]\\])/g, "\\$1")}](<${url.replace(/[<>]/g, encodeURIComponent)}>)`;
  return { title: `Quote from ${name}`.slice(0, 500), content: `${quote}\n\n— ${link}\n` };
}

/** The text around the selection in the tab (whitespace collapsed), to tell repeated quotes apart. */
export async function readSelectionContext(tabId: number): Promise<{ prefix?: string; suffix?: string }> {
  try {
    const [result] = await ext.scripting.executeScript({
      target: { tabId },
      func: () => {
        const sel = window.getSelection();
        if (!sel || sel.rangeCount === 0 || !document.body) return null;
        const r = sel.getRangeAt(0);
        const before = document.createRange();
        before.setStart(document.body, 0);
        before.setEnd(r.startContainer, r.startOffset);
        const after = document.createRange();
        after.setStart(r.endContainer, r.endOffset);
        after.setEnd(document.body, document.body.childNodes.length);
        const norm = (s: string) => s.replace(/\s+/g, " ");
        return { prefix: norm(before.toString()).slice(-32), suffix: norm(after.toString()).slice(0, 32) };
      },
    });
    const v = result?.result as { prefix?: unknown; suffix?: unknown } | null | undefined;
    if (!v) return {};
    return {
      ...(typeof v.prefix === "string" && v.prefix.trim() ? { prefix: v.prefix } : {}),
      ...(typeof v.suffix === "string" && v.suffix.trim() ? { suffix: v.suffix } : {}),
    };
  } catch {
    return {};
  }
}

/** The server could not make a highlight here (no such endpoint, source not ready, quote not in its text). */
const highlightRefused = (e: unknown) =>
  e instanceof ApiError && e.failure.kind === "http" && [404, 409, 422].includes(e.failure.status);

export type SelectionResult = { sourceId: string; highlight: Highlight } | { sourceId: string; note: Note };

/**
 * Saves the page unless it is already saved. When its source is ready, the selection becomes a
 * highlight in it; while it is still being fetched (a page saved just now), or when the server
 * cannot find the selection in the saved article, it becomes a note quoting it, linked to the source.
 */
export async function saveSelection(
  api: Api,
  page: { url: string; title?: string; html?: string | null },
  text: string,
  context: { prefix?: string; suffix?: string } = {},
): Promise<SelectionResult> {
  const check = await api.check(page.url);
  const source =
    check.saved && check.source_id
      ? await api.getSource(check.source_id)
      : (await saveSource(api, { url: page.url, title: page.title, html: page.html })).source;
  if (source.status === "ready") {
    try {
      const highlight = await api.createHighlight({
        source_id: source.id,
        exact: text.trim().slice(0, 5000),
        ...context,
      });
      return { sourceId: source.id, highlight };
    } catch (e) {
      if (!highlightRefused(e)) throw e;
    }
  }
  const note = await api.createNote({ ...quoteNote(text, page.title, page.url), source_ids: [source.id] });
  return { sourceId: source.id, note };
}

/** Polls the source every `intervalMs` until it is ready or failed, reporting each state. */
export async function followSource(
  api: Api,
  id: string,
  onUpdate: (s: Source) => void,
  opts: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Source> {
  const interval = opts.intervalMs ?? 1000;
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const source = await api.getSource(id);
    onUpdate(source);
    if (source.status !== "pending" || Date.now() > deadline || opts.signal?.aborted) return source;
    await new Promise((r) => setTimeout(r, interval));
  }
}
