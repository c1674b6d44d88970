// The options page: the server's address, Connect (approval page in a tab) or paste a key, the
// connection's state as the server sees it now, and the badge setting.
import { ApiError, createApi } from "./api.ts";
import type { BackgroundMessage } from "./background.ts";
import { clientLabel, ext } from "./browser.ts";
import { acceptKey } from "./connect.ts";
import { $, announce, show, type Tone } from "./dom.ts";
import { clearSettings, loadSettings, normalizeServer, originPattern, saveSettings } from "./settings.ts";

const state = $("state");
const serverInput = $<HTMLInputElement>("server");
const keyInput = $<HTMLInputElement>("key");
const badge = $<HTMLInputElement>("badge");

function say(text: string, tone?: Tone) {
  announce(state, text, tone);
}

let rendering = 0;
async function render() {
  const run = ++rendering;
  const s = await loadSettings();
  if (s.server && document.activeElement !== serverInput) serverInput.value = s.server;
  badge.checked = s.badge !== false;
  show($("disconnect"), !!s.key);
  if (!s.server || !s.key) return say(s.connectError ?? "Not connected", s.connectError ? "error" : undefined);
  say(`Checking ${s.server}…`);
  try {
    const me = await createApi({
      server: s.server,
      key: s.key,
      onUnauthorized: () => saveSettings({ connection: "disconnected" }),
    }).me();
    if (run !== rendering) return;
    if (s.connection !== "connected") await saveSettings({ connection: "connected", email: me.email });
    say(`Connected to ${s.server} as ${me.email}`, "ok");
  } catch (e) {
    if (run !== rendering) return;
    say(e instanceof ApiError ? e.message : String(e), "error");
  }
}

/** The address typed, or null after saying why it is unusable. */
function serverFromInput(): string | null {
  const server = normalizeServer(serverInput.value);
  if (!server) say("Enter the server's address, e.g. https://notes.example.org", "error");
  return server;
}

// permissions.request must run straight from the click (Firefox refuses it after an await).
$("connect-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const server = serverFromInput();
  if (!server) return;
  void ext.permissions.request({ origins: [originPattern(server)] }).then(async (granted) => {
    if (!granted) return say(`Permission to reach ${server} was not given`, "error");
    say("Approve the connection in the tab that opened…");
    const message: BackgroundMessage = { type: "connect", server, label: clientLabel() };
    await ext.runtime.sendMessage(message);
  });
});

$("key-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const server = serverFromInput();
  const key = keyInput.value.trim();
  if (!server) return;
  if (!key) return say("Paste a key first", "error");
  void ext.permissions.request({ origins: [originPattern(server)] }).then(async (granted) => {
    if (!granted) return say(`Permission to reach ${server} was not given`, "error");
    const result = await acceptKey(server, key);
    if ("error" in result) return say(result.error, "error");
    keyInput.value = "";
    await render();
  });
});

$("disconnect").addEventListener("click", () => {
  void clearSettings(["key", "email", "connection"]).then(render);
});

badge.addEventListener("change", () => void saveSettings({ badge: badge.checked }));

ext.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && (changes.key || changes.connection || changes.connectError)) void render();
});

void ext.commands.getAll().then((commands) => {
  $("shortcuts").replaceChildren(
    ...commands.map((c) => {
      const item = document.createElement("li");
      const what = c.name === "_execute_action" ? "Open the save popup" : (c.description ?? c.name ?? "");
      item.textContent = `${c.shortcut || "(not set)"}: ${what}`;
      return item;
    }),
  );
});

void render();
