// The options page: the server's address, Connect (approval page in a tab) or paste a key, the
// connection's state as the server sees it now, and the badge setting.
import { ApiError, createApi } from "./api.ts";
import type { BackgroundMessage } from "./background.ts";
import { clientLabel, ext } from "./browser.ts";
import { acceptKey } from "./connect.ts";
import { $, show } from "./dom.ts";
import { clearSettings, loadSettings, normalizeServer, originPattern, saveSettings } from "./settings.ts";

const state = $("state");
const serverInput = $<HTMLInputElement>("server");
const keyInput = $<HTMLInputElement>("key");
const badge = $<HTMLInputElement>("badge");

function say(text: string, error = false) {
  state.textContent = text;
  state.classList.toggle("error", error);
}

let rendering = 0;
async function render() {
  const run = ++rendering;
  const s = await loadSettings();
  if (s.server && document.activeElement !== serverInput) serverInput.value = s.server;
  badge.checked = s.badge !== false;
  show($("disconnect"), !!s.key);
  if (!s.server || !s.key) return say(s.connectError ?? "Not connected", !!s.connectError);
  say(`Checking ${s.server}…`);
  try {
    const me = await createApi({
      server: s.server,
      key: s.key,
      onUnauthorized: () => saveSettings({ connection: "disconnected" }),
    }).me();
    if (run !== rendering) return;
    if (s.connection !== "connected") await saveSettings({ connection: "connected", email: me.email });
    say(`Connected to ${s.server} as ${me.email}`);
  } catch (e) {
    if (run !== rendering) return;
    say(e instanceof ApiError ? e.message : String(e), true);
  }
}

/** The address typed, or null after saying why it is unusable. */
function serverFromInput(): string | null {
  const server = normalizeServer(serverInput.value);
  if (!server) say("Enter the server's address, e.g. https://notes.example.org", true);
  return server;
}

// permissions.request must run straight from the click (Firefox refuses it after an await).
$("connect-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const server = serverFromInput();
  if (!server) return;
  void ext.permissions.request({ origins: [originPattern(server)] }).then(async (granted) => {
    if (!granted) return say(`Permission to reach ${server} was not given`, true);
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
  if (!key) return say("Paste a key first", true);
  void ext.permissions.request({ origins: [originPattern(server)] }).then(async (granted) => {
    if (!granted) return say(`Permission to reach ${server} was not given`, true);
    const result = await acceptKey(server, key);
    if ("error" in result) return say(result.error, true);
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
  $("shortcuts").textContent = commands
    .map((c) => `${c.shortcut || "(not set)"}: ${c.name === "_execute_action" ? "open the save popup" : c.description}`)
    .join(" · ");
});

void render();
