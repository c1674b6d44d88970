// The toolbar popup: is this page saved, title / notebooks / tags / quick podcast, Save (with the
// page's rendered HTML), then the new source followed live until it is ready.
// `popup.html?tab=<id>` targets a given tab (browser tests open the popup as a page, not from a toolbar).
import { ApiError, PODCAST_FORMAT_LABELS, PODCAST_FORMATS, type Api, type PodcastFormat, type Source } from "./api.ts";
import { ext } from "./browser.ts";
import { connectedApi, followSource, isWebPage, readPageHtml, saveSource } from "./capture.ts";
import { $, announce, show, type Tone } from "./dom.ts";
import { saveSettings, sourcePageUrl } from "./settings.ts";

const form = $<HTMLFormElement>("save-form");
const message = $("message");
const actions = $("actions");
const retry = $<HTMLButtonElement>("retry");
const podcast = $<HTMLInputElement>("podcast");
const format = $<HTMLSelectElement>("podcast-format");
const saveButton = $<HTMLButtonElement>("save");

let retryAction: () => void = () => {};

function say(text: string, tone?: Tone) {
  announce(message, text, tone);
}

/** Words a failure the same way everywhere; Retry where trying again can help. */
function fail(e: unknown, again: () => void) {
  const err = e instanceof ApiError ? e : null;
  say(e instanceof Error ? e.message : String(e), "error");
  const kind = err?.failure.kind;
  show(actions, true);
  show(retry, !!err?.retryable);
  show($("open-options"), kind === "disconnected" || kind === "not_connected");
  retryAction = again;
}

retry.addEventListener("click", () => {
  show(actions, false);
  retryAction();
});
$("open-options").addEventListener("click", () => void ext.runtime.openOptionsPage());

for (const f of PODCAST_FORMATS)
  format.add(new Option(PODCAST_FORMAT_LABELS[f], f, f === "deep_dive", f === "deep_dive"));
podcast.addEventListener("change", () => (format.disabled = !podcast.checked));

async function targetTab(): Promise<chrome.tabs.Tab | undefined> {
  const requested = new URLSearchParams(location.search).get("tab");
  if (requested !== null) return ext.tabs.get(Number(requested));
  const [tab] = await ext.tabs.query({ active: true, currentWindow: true });
  return tab;
}

async function init(): Promise<void> {
  show(actions, false);
  say("Loading…");
  let api: Api;
  let server: string;
  try {
    ({ api, server } = await connectedApi());
  } catch (e) {
    return fail(e, () => void init());
  }
  const tab = await targetTab();
  if (!tab?.id || !isWebPage(tab.url)) return say("Only http and https pages can be saved.", "error");
  const { id: tabId, url } = tab;
  try {
    const [me, check, notebooks] = await Promise.all([api.me(), api.check(url), api.notebooks()]);
    await saveSettings({ connection: "connected", email: me.email });
    say(`Save to ${server}`, "quiet");
    const state = $("saved-state");
    state.textContent = check.saved ? "Already in your library — saving again updates it." : "Not saved yet.";
    state.dataset.saved = String(check.saved);
    if (check.saved && check.source_id) saveButton.textContent = "Save again";
    $<HTMLInputElement>("title").value = tab.title ?? "";
    const box = $("notebooks");
    box.replaceChildren(
      ...notebooks.map((nb) => {
        const label = document.createElement("label");
        label.className = "check";
        const input = Object.assign(document.createElement("input"), {
          type: "checkbox",
          value: nb.id,
          name: "notebook",
        });
        label.append(input, ` ${nb.name}`);
        return label;
      }),
    );
    show($("notebooks-field"), notebooks.length > 0);
    show(form, true);
  } catch (e) {
    return fail(e, () => void init());
  }
  form.onsubmit = (ev) => {
    ev.preventDefault();
    void save(api, server, tabId, url);
  };
}

async function save(api: Api, server: string, tabId: number, url: string): Promise<void> {
  show(actions, false);
  const label = saveButton.textContent;
  saveButton.disabled = true;
  saveButton.textContent = "Saving…";
  say("Saving…", "quiet");
  const notebookIds = [...form.querySelectorAll<HTMLInputElement>("input[name=notebook]:checked")].map((i) => i.value);
  try {
    const html = await readPageHtml(tabId);
    const saved = await saveSource(api, {
      url,
      html,
      title: $<HTMLInputElement>("title").value,
      notebookIds,
      tags: $<HTMLInputElement>("tags").value.split(","),
      podcast: podcast.checked ? (format.value as PodcastFormat) : null,
    });
    show(form, false);
    say(saved.created ? "Saved." : "Saved again (it was already in your library).", "ok");
    const note = $("capture-note");
    note.textContent = saved.fetchedByServer
      ? `The server fetched the page itself: it did not take the page as shown here (${saved.fetchedByServer}).`
      : html
        ? ""
        : "This page could not be read here; the server fetches it itself.";
    const link = $<HTMLAnchorElement>("open-source");
    link.href = sourcePageUrl(server, saved.source.id);
    show($("progress"), true);
    void ext.runtime.sendMessage({ type: "refresh-badges" }).catch(() => undefined);
    await followSource(api, saved.source.id, showStatus);
  } catch (e) {
    saveButton.disabled = false;
    saveButton.textContent = label;
    fail(e, () => void save(api, server, tabId, url));
  }
}

function showStatus(s: Source) {
  const status = $("status");
  status.dataset.status = s.status;
  status.textContent =
    s.status === "ready"
      ? `Ready${s.word_count ? ` — ${s.word_count} words` : ""}`
      : s.status === "failed"
        ? `Failed — ${s.error_detail ?? s.error ?? "unknown error"}`
        : "Pending — fetching and reading the page…";
}

void init();
