// The background (Chromium's service worker, Firefox's event page): context menus, the keyboard
// shortcut, the badge, and the connect flow (watch the approval tab, take the key from its fragment).
import { badgeBusy, badgeFailed, badgeSaved, refreshAllBadges, refreshBadge } from "./badge.ts";
import { ext } from "./browser.ts";
import { connectedApi, isWebPage, readPageHtml, readSelectionContext, saveSelection, saveSource } from "./capture.ts";
import { acceptKey } from "./connect.ts";
import { clearSettings, loadSettings, saveSettings } from "./settings.ts";

export type BackgroundMessage = { type: "connect"; server: string; label: string } | { type: "refresh-badges" };

const MENUS = [
  { id: "save-page", title: "Save page to Commonplace", contexts: ["page"] },
  { id: "save-link", title: "Save link to Commonplace", contexts: ["link"] },
  { id: "save-selection", title: "Highlight selection in Commonplace", contexts: ["selection"] },
] as const;

ext.runtime.onInstalled.addListener(() => {
  void ext.contextMenus.removeAll().then(() => {
    for (const m of MENUS) ext.contextMenus.create({ id: m.id, title: m.title, contexts: [...m.contexts] });
  });
  void refreshAllBadges();
});
ext.runtime.onStartup.addListener(() => void refreshAllBadges());

type MenuInfo = { menuItemId: string | number; linkUrl?: string; selectionText?: string; pageUrl?: string };
type TabLike = { id?: number; url?: string; title?: string };

/** One context-menu click. Returns what was saved (the tests call it directly: headless has no menus). */
export async function onMenuClick(info: MenuInfo, tab: TabLike | undefined) {
  const tabId = tab?.id;
  if (tabId === undefined) return null;
  await badgeBusy(tabId);
  try {
    const { api } = await connectedApi();
    if (info.menuItemId === "save-link") {
      // A link is saved by its address only: the server fetches it.
      if (!isWebPage(info.linkUrl)) throw new Error("Only http and https links can be saved");
      const saved = await saveSource(api, { url: info.linkUrl });
      await badgeSaved(tabId, `Saved link: ${saved.source.url}`);
      setTimeout(() => void refreshBadge(tabId, tab?.url), 4000);
      return saved;
    }
    const url = tab?.url ?? info.pageUrl;
    if (!isWebPage(url)) throw new Error("Only http and https pages can be saved");
    const html = await readPageHtml(tabId);
    if (info.menuItemId === "save-selection" && info.selectionText?.trim()) {
      const context = await readSelectionContext(tabId);
      const result = await saveSelection(api, { url, title: tab?.title, html }, info.selectionText, context);
      await badgeSaved(
        tabId,
        "highlight" in result ? "Highlight saved in Commonplace" : "Quote saved as a note in Commonplace",
      );
      return result;
    }
    const saved = await saveSource(api, { url, title: tab?.title, html });
    await badgeSaved(tabId);
    return saved;
  } catch (e) {
    await badgeFailed(tabId, e);
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

ext.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));

ext.commands.onCommand.addListener((command, tab) => {
  if (command !== "save-page") return;
  void (async () => {
    const target = tab ?? (await ext.tabs.query({ active: true, currentWindow: true }))[0];
    await onMenuClick({ menuItemId: "save-page" }, target);
  })();
});

// The badge follows the page shown in each tab.
ext.tabs.onActivated.addListener(({ tabId }) => {
  void ext.tabs.get(tabId).then(
    (t) => refreshBadge(tabId, t.url, t.incognito),
    () => undefined,
  );
});
ext.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.url || change.status === "complete") void refreshBadge(tabId, tab.url, tab.incognito);
  if (change.url) void watchConnectTab(tabId, change.url);
});
ext.tabs.onRemoved.addListener((tabId) => {
  void loadSettings().then((s) => (s.pendingConnect?.tabId === tabId ? clearSettings(["pendingConnect"]) : undefined));
});

ext.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && (changes.connection || changes.key || changes.badge)) void refreshAllBadges();
});

ext.runtime.onMessage.addListener((message: BackgroundMessage, _sender, reply) => {
  if (message.type === "connect") {
    void startConnect(message.server, message.label).then(reply, (e: Error) => reply({ error: e.message }));
    return true;
  }
  if (message.type === "refresh-badges") {
    void refreshAllBadges().then(() => reply({}));
    return true;
  }
  return false;
});

/** Opens the server's approval page in a tab and remembers it, so the key can be taken when it comes back. */
async function startConnect(server: string, label: string) {
  const url = `${server}/extension/connect?client=${encodeURIComponent(label.slice(0, 60))}`;
  const tab = await ext.tabs.create({ url });
  await saveSettings({ server, pendingConnect: { tabId: tab.id!, server } });
  await clearSettings(["connectError"]);
  return { tabId: tab.id };
}

/**
 * When the approval tab reaches {server}/extension/connected#key=… (or #error=…), store the key (or
 * the refusal) and close the tab. The key exists only in that fragment; it is read here and sent
 * nowhere but back to the same server as a Bearer token.
 */
export async function watchConnectTab(tabId: number, url: string): Promise<void> {
  const { pendingConnect } = await loadSettings();
  if (!pendingConnect || pendingConnect.tabId !== tabId) return;
  const landing = `${pendingConnect.server}/extension/connected`;
  if (!url.startsWith(landing)) return;
  const fragment = new URLSearchParams(new URL(url).hash.slice(1));
  const key = fragment.get("key");
  const error = fragment.get("error");
  if (!key && !error) return;
  await clearSettings(["pendingConnect"]);
  await ext.tabs.remove(tabId).catch(() => undefined);
  if (!key) {
    await saveSettings({ connectError: error === "denied" ? "Connection cancelled" : `Connection failed (${error})` });
    return;
  }
  await acceptKey(pendingConnect.server, key);
}

// For the browser tests, which cannot click a context menu or the toolbar in headless Chromium.
Object.assign(globalThis, { commonplace: { onMenuClick, acceptKey, refreshBadge, refreshAllBadges } });
