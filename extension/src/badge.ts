// The toolbar button's badge: "!" everywhere when the key stopped working, "✓" on a page that is
// in the library (when the user keeps that on), "…" while saving, "×" with the reason in the tooltip.
import { ApiError } from "./api.ts";
import { ext } from "./browser.ts";
import { connectedApi, isWebPage } from "./capture.ts";
import { loadSettings } from "./settings.ts";

const RED = "#b3261e";
const GREEN = "#1b7f3b";
const GREY = "#5f6368";
export const DISCONNECTED_TITLE = "Commonplace — Disconnected — connect again";
const IDLE_TITLE = "Save to Commonplace";

async function set(tabId: number | undefined, text: string, color: string, title: string) {
  const target = tabId === undefined ? {} : { tabId };
  await Promise.all([
    ext.action.setBadgeText({ ...target, text }),
    ext.action.setBadgeBackgroundColor({ ...target, color }),
    ext.action.setTitle({ ...target, title }),
  ]);
}

/** The badge every tab falls back to, and each open tab's own. */
export async function refreshAllBadges(): Promise<void> {
  const s = await loadSettings();
  const disconnected = s.connection === "disconnected" && !!s.key;
  await set(
    undefined,
    disconnected ? "!" : "",
    disconnected ? RED : GREY,
    disconnected ? DISCONNECTED_TITLE : IDLE_TITLE,
  );
  const tabs = await ext.tabs.query({});
  await Promise.all(tabs.map((t) => (t.id === undefined ? undefined : refreshBadge(t.id, t.url, t.incognito))));
}

/** Asks the server whether the tab's page is saved and marks it. */
export async function refreshBadge(tabId: number, url: string | undefined, incognito = false): Promise<void> {
  const s = await loadSettings();
  if (s.key && s.connection === "disconnected") return set(tabId, "!", RED, DISCONNECTED_TITLE);
  if (!s.key || s.badge === false || incognito || !isWebPage(url)) return set(tabId, "", GREY, IDLE_TITLE);
  try {
    const { api } = await connectedApi();
    const check = await api.check(url);
    await (check.saved ? set(tabId, "✓", GREEN, "Saved in Commonplace") : set(tabId, "", GREY, IDLE_TITLE));
  } catch (e) {
    // A 401 already marked the connection lost (storage change → every badge shows "!"); a closed
    // tab or an unreachable server leaves the badge as it was until the next page.
    if (e instanceof ApiError && e.failure.kind === "disconnected") await set(tabId, "!", RED, DISCONNECTED_TITLE);
  }
}

export const badgeBusy = (tabId: number) => set(tabId, "…", GREY, "Saving to Commonplace…");
export const badgeSaved = (tabId: number, title = "Saved in Commonplace") => set(tabId, "✓", GREEN, title);
export async function badgeFailed(tabId: number, e: unknown): Promise<void> {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof ApiError && e.failure.kind === "disconnected") return set(tabId, "!", RED, DISCONNECTED_TITLE);
  await set(tabId, "×", RED, `Commonplace — ${message}`);
}
