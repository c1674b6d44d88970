// What the extension keeps in storage.local: the server's address, the key, and whether the server
// last accepted it. One module reads and writes it so the popup, options page and background agree.
import { ext } from "./browser.ts";

export type Connection = "connected" | "disconnected";

export interface Settings {
  /** The server's base address without a trailing slash, e.g. "https://notes.example.org". */
  server?: string;
  key?: string;
  /** "disconnected" after a 401: the key was revoked or expired. */
  connection?: Connection;
  /** The signed-in account, as GET /api/v1/me last said. */
  email?: string;
  /** Set when the connect tab came back with #error=…; shown on the options page. */
  connectError?: string;
  /** The tab opened for the approval page, watched by the background until it lands on /extension/connected. */
  pendingConnect?: { tabId: number; server: string };
  /** Mark already-saved pages on the toolbar button (asks the server about each page you visit). */
  badge?: boolean;
}

export async function loadSettings(): Promise<Settings> {
  return (await ext.storage.local.get(null)) as Settings;
}

export async function saveSettings(patch: Partial<Settings>): Promise<void> {
  await ext.storage.local.set(patch);
}

export async function clearSettings(keys: (keyof Settings)[]): Promise<void> {
  await ext.storage.local.remove(keys);
}

/** "notes.example.org:8080/" → "http://notes.example.org:8080"; a path prefix is kept. Null when unreadable. */
export function normalizeServer(input: string): string | null {
  const raw = input.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** The host permission pattern the server's address needs: "https://notes.example.org/*". */
export function originPattern(server: string): string {
  return `${new URL(server).origin}/*`;
}

/** The web app's page for a source. */
export function sourcePageUrl(server: string, id: string): string {
  return `${server}/library/sources/${encodeURIComponent(id)}`;
}
