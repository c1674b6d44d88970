// A cookie-keeping form client over app.handle, so tests of the pages read like a browser session.
export interface PageResult {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

type Handler = { app: { handle(r: Request): Response | Promise<Response> } };

/** `base` is the address the browser is at (http://localhost unless a test opens another one). */
export function testBrowser(ctx: Handler, opts: { origin?: string; base?: string } = {}) {
  const base = opts.base ?? "http://localhost";
  const jar = new Map<string, string>();

  function remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0]!;
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      if (/;\s*max-age=0/i.test(c)) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
  }

  async function request(
    method: string,
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<PageResult> {
    const h = new Headers(headers);
    if (jar.size && !h.has("cookie")) h.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    if (opts.origin && method === "POST" && !h.has("origin")) h.set("origin", opts.origin);
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      h.set("content-type", "application/x-www-form-urlencoded");
    }
    const res = await ctx.app.handle(new Request(`${base}${path}`, { method, headers: h, body }));
    remember(res);
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get("location") };
  }

  return {
    jar,
    get: (path: string, headers?: Record<string, string>) => request("GET", path, undefined, headers),
    post: (path: string, form: Record<string, string>, headers?: Record<string, string>) =>
      request("POST", path, form, headers),
    /** Loads a page and submits its form with the hidden fields it carries plus `fields`. */
    async submit(
      pagePath: string,
      action: string,
      fields: Record<string, string>,
      headers?: Record<string, string>,
    ): Promise<PageResult> {
      const page = await request("GET", pagePath);
      return request("POST", action, { ...hiddenFields(page.text, action), ...fields }, headers);
    },
  };
}
export type TestBrowser = ReturnType<typeof testBrowser>;

/** The hidden inputs of the first form posting to `action`. */
export function hiddenFields(text: string, action: string): Record<string, string> {
  const start = text.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = text.slice(start, text.indexOf("</form>", start));
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]!] = m[2]!;
  return out;
}

export async function signUp(b: TestBrowser, email: string, password = "correct horse battery"): Promise<PageResult> {
  return b.submit("/signup", "/signup", { email, password, name: "" });
}
