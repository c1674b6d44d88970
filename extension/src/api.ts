// A small client for the public API (/api/v1) with a Bearer key. Every failure becomes one of a
// few kinds the UI words the same way everywhere: 401 "Disconnected — connect again", 429 with the
// wait from Retry-After, a network failure that offers Retry, or the server's own problem detail.
// It uses only fetch, so it runs in the popup, the options page, the background and bun tests.

export const PODCAST_FORMATS = ["solo_expert", "deep_dive", "brief", "critique", "debate", "unabridged"] as const;
export type PodcastFormat = (typeof PODCAST_FORMATS)[number];
export const PODCAST_FORMAT_LABELS: Record<PodcastFormat, string> = {
  solo_expert: "Solo expert",
  deep_dive: "Deep dive",
  brief: "Brief",
  critique: "Critique",
  debate: "Debate",
  unabridged: "Unabridged",
};

export interface Source {
  id: string;
  url: string;
  title: string | null;
  status: "pending" | "ready" | "failed";
  error: string | null;
  error_detail: string | null;
  notebook_ids: string[];
  tags: string[];
  word_count: number | null;
  content?: string | null;
  /** Where the content came from (capture contract): the browser's HTML or the server's own fetch. */
  capture?: "browser" | "server";
}

export interface SourceCheck {
  url: string;
  normalized_url: string;
  saved: boolean;
  source_id: string | null;
}

export interface Notebook {
  id: string;
  name: string;
}

export interface Me {
  id: string;
  email: string;
  auth: { type: string; name?: string };
}

export interface Note {
  id: string;
  content: string;
  source_ids: string[];
}

export interface Highlight {
  id: string;
  source_id: string;
  exact: string;
  position: { start: number; end: number };
  color: string;
  note: string | null;
}

export interface HighlightCreate {
  source_id: string;
  exact: string;
  prefix?: string;
  suffix?: string;
}

export interface SourceCreate {
  url: string;
  title?: string;
  notebook_ids?: string[];
  generate_quick_podcast?: boolean;
  podcast_format?: PodcastFormat;
  /** The page as the browser rendered it (document.documentElement.outerHTML). */
  html?: string;
}

export type Failure =
  | { kind: "not_connected" }
  | { kind: "disconnected" }
  | { kind: "rate_limited"; retryAfter: number }
  | { kind: "network"; detail: string }
  | { kind: "http"; status: number; detail: string; fields: { path: string; message: string }[] };

export class ApiError extends Error {
  constructor(readonly failure: Failure) {
    super(describeFailure(failure));
    this.name = "ApiError";
  }
  /** A network failure or a 5xx: trying again may work. */
  get retryable(): boolean {
    return this.failure.kind === "network" || (this.failure.kind === "http" && this.failure.status >= 500);
  }
}

export function describeFailure(f: Failure): string {
  switch (f.kind) {
    case "not_connected":
      return "Not connected — open the extension's settings to connect";
    case "disconnected":
      return "Disconnected — connect again";
    case "rate_limited":
      return `Rate limited — try again in ${f.retryAfter} s`;
    case "network":
      return `Could not reach the server (${f.detail})`;
    case "http":
      return f.fields.length ? `${f.detail} (${f.fields.map((e) => `${e.path}: ${e.message}`).join("; ")})` : f.detail;
  }
}

/** Retry-After as delay-seconds or an HTTP date, in whole seconds (at least 1). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header) {
    const n = Number(header);
    if (Number.isFinite(n) && n >= 0) return Math.max(1, Math.ceil(n));
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - now) / 1000));
  }
  return 60;
}

export interface ApiOptions {
  server: string;
  key: string;
  /** Called on any 401, before the ApiError is thrown: mark the connection as lost. */
  onUnauthorized?: () => Promise<void> | void;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export function createApi(o: ApiOptions) {
  const doFetch = o.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));

  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    let res: Response;
    try {
      res = await doFetch(`${o.server}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${o.key}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The key is the credential; no cookies of the server's web app ride along.
        credentials: "omit",
      });
    } catch (e) {
      throw new ApiError({ kind: "network", detail: e instanceof Error ? e.message : String(e) });
    }
    if (res.status === 401) {
      await o.onUnauthorized?.();
      throw new ApiError({ kind: "disconnected" });
    }
    if (res.status === 429)
      throw new ApiError({ kind: "rate_limited", retryAfter: retryAfterSeconds(res.headers.get("retry-after")) });
    if (!res.ok) {
      const problem = (await res.json().catch(() => ({}))) as { detail?: string; title?: string; errors?: unknown };
      const fields = Array.isArray(problem.errors) ? (problem.errors as { path: string; message: string }[]) : [];
      const detail = problem.detail ?? problem.title ?? `The server answered ${res.status}`;
      throw new ApiError({ kind: "http", status: res.status, detail, fields });
    }
    return { status: res.status, data: (await res.json()) as T };
  }

  return {
    me: async () => (await call<Me>("GET", "/me")).data,
    check: async (url: string) =>
      (await call<SourceCheck>("GET", `/sources/check?url=${encodeURIComponent(url)}`)).data,
    notebooks: async () => (await call<{ data: Notebook[] }>("GET", "/notebooks?limit=100")).data.data,
    getSource: async (id: string) => (await call<Source>("GET", `/sources/${encodeURIComponent(id)}`)).data,
    createSource: async (body: SourceCreate) => {
      const { status, data } = await call<Source>("POST", "/sources", body);
      return { source: data, created: status === 201 };
    },
    setTags: async (id: string, tags: string[]) =>
      (await call<Source>("PATCH", `/sources/${encodeURIComponent(id)}`, { tags })).data,
    createNote: async (body: { content: string; title?: string; source_ids?: string[] }) =>
      (await call<Note>("POST", "/notes", body)).data,
    createHighlight: async (body: HighlightCreate) => (await call<Highlight>("POST", "/highlights", body)).data,
  };
}
export type Api = ReturnType<typeof createApi>;

/** The server refused the `html` field itself (an older server, or a page over its size limit). */
export function refusedHtml(e: unknown): boolean {
  if (!(e instanceof ApiError) || e.failure.kind !== "http") return false;
  const { status, fields, detail } = e.failure;
  if (status === 413) return true;
  return (status === 422 || status === 400) && (fields.some((f) => f.path === "html") || /\bhtml\b/.test(detail));
}
