// The live-updates script against a parsed page (linkedom) with a scripted EventSource and fetch:
// fields, progress bars, fragments, reloads and deletions follow the documented convention.
import { describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { LIVE_SCRIPT } from "./live-script.ts";

class FakeEventSource {
  static last: FakeEventSource | undefined;
  listeners = new Map<string, ((e: { data: string; lastEventId: string }) => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (e: { data: string; lastEventId: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: Record<string, unknown>, lastEventId = "1") {
    for (const fn of this.listeners.get(type) ?? [])
      fn({ data: JSON.stringify({ id: "evt_1", type, occurred_at: "", data }), lastEventId });
  }
}

/** Runs the script on `body`; fragments are answered by `pages` (path → status and markup). */
function run(body: string, pages: Record<string, { status: number; markup: string }> = {}) {
  const { document, window } = parseHTML(`<!doctype html><html><body>${body}</body></html>`);
  FakeEventSource.last = undefined;
  const fetched: string[] = [];
  let reloads = 0;
  const location = { href: "http://localhost/library", origin: "http://localhost", reload: () => reloads++ };
  const fetch = async (path: string) => {
    fetched.push(path);
    const page = pages[path] ?? { status: 404, markup: "" };
    return new Response(page.markup, { status: page.status });
  };
  const win = Object.assign(window, { EventSource: FakeEventSource });
  // The page script runs as the browser would run it, in its own scope: this is the point of the test.
  // oxlint-disable-next-line typescript/no-implied-eval
  new Function("window", "document", "EventSource", "fetch", "location", "setTimeout", LIVE_SCRIPT)(
    win,
    document,
    FakeEventSource,
    fetch,
    location,
    (fn: () => void) => fn(),
  );
  const settle = () => new Promise((r) => setTimeout(r, 5));
  const setHidden = (hidden: boolean) => {
    Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
    document.dispatchEvent(new window.Event("visibilitychange"));
  };
  return {
    document,
    stream: FakeEventSource.last as FakeEventSource | undefined,
    fetched,
    reloads: () => reloads,
    settle,
    setHidden,
  };
}

describe("live-updates script", () => {
  test("opens no stream on a page without live elements", () => {
    expect(run("<p>nothing live</p>").stream).toBeUndefined();
  });

  test("resumes after the lowest rendered cursor", () => {
    const { stream } = run(
      '<ul data-live-since="12"><li data-live="source" data-live-id="src_A"></li></ul><p data-live-since="9"></p>',
    );
    expect(stream!.url).toBe("/events/stream?last_event_id=9");
  });

  test("fields of the matching object take the event's values as text, nested paths included", () => {
    const { document, stream } = run(`
      <div data-live="run" data-live-id="run_1"><b data-live-field="status">queued</b> <i data-live-field="step.status"></i></div>
      <div data-live="run" data-live-id="run_2"><b data-live-field="status">queued</b></div>
      <div data-live="source" data-live-id="run_1"><b data-live-field="status">queued</b></div>`);
    stream!.emit("run.step_finished", {
      id: "run_1",
      status: "running",
      step: { status: "<img src=x onerror=alert(1)>" },
    });
    const [mine, other, wrongKind] = document.querySelectorAll("[data-live]");
    expect(mine!.querySelector("b")!.textContent).toBe("running");
    expect(mine!.querySelector("b")!.getAttribute("data-live-value")).toBe("running");
    expect(mine!.querySelector("i")!.textContent).toBe("<img src=x onerror=alert(1)>");
    expect(mine!.querySelector("img")).toBeNull();
    expect(other!.querySelector("b")!.textContent).toBe("queued");
    expect(wrongKind!.querySelector("b")!.textContent).toBe("queued");
  });

  test("progress events fill the bar, show it, and update the detail", () => {
    const { document, stream } = run(`<section data-live="podcast" data-live-id="pod_1">
      <progress data-live-progress max="100" value="0" hidden></progress><span data-live-field="detail"></span></section>`);
    stream!.emit("podcast.progress", { id: "pod_1", phase: "speech", percent: 42, detail: "Speaking line 3 of 7" });
    const bar = document.querySelector("progress")!;
    expect(bar.getAttribute("value")).toBe("42");
    expect(bar.hasAttribute("hidden")).toBe(false);
    expect(document.querySelector("span")!.textContent).toBe("Speaking line 3 of 7");
  });

  test("an element with a fragment is replaced by the fragment's element", async () => {
    const row = (status: string) =>
      `<li data-live="source" data-live-id="src_A" data-live-fragment="/library/sources/src_A/row"><span>${status}</span></li>`;
    const { document, stream, fetched, settle } = run(`<ul>${row("Pending")}</ul>`, {
      "/library/sources/src_A/row": { status: 200, markup: row("Ready") },
    });
    stream!.emit("source.updated", { id: "src_A", status: "ready" });
    await settle();
    expect(fetched).toEqual(["/library/sources/src_A/row"]);
    expect(document.querySelector("ul")!.innerHTML).toBe(row("Ready"));
  });

  test("a fragment answering 404 marks the element deleted; a foreign fragment address is never fetched", async () => {
    const { document, stream, fetched, settle } = run(`
      <li data-live="source" data-live-id="src_A" data-live-fragment="/library/sources/src_A/row">a</li>
      <li data-live="source" data-live-id="src_B" data-live-fragment="https://elsewhere.example/steal">b</li>`);
    stream!.emit("source.updated", { id: "src_A" });
    stream!.emit("source.updated", { id: "src_B" });
    await settle();
    expect(fetched).toEqual(["/library/sources/src_A/row"]);
    expect(document.querySelector('[data-live-id="src_A"]')!.hasAttribute("data-live-deleted")).toBe(true);
  });

  test("data-live-reload reloads the page once for a burst of events", () => {
    const { stream, reloads } = run('<p data-live="source" data-live-id="src_A" data-live-reload>pending</p>');
    stream!.emit("source.updated", { id: "src_A", status: "ready" });
    stream!.emit("source.updated", { id: "src_A", status: "ready" });
    expect(reloads()).toBe(1);
  });

  test("a hidden tab closes its stream; shown again it reopens after the last event it saw", () => {
    const { stream, setHidden } = run(
      '<ul data-live-since="7"><li data-live="source" data-live-id="src_A"><b data-live-field="status"></b></li></ul>',
    );
    stream!.emit("source.updated", { id: "src_A", status: "ready" }, "31");
    setHidden(true);
    expect(stream!.closed).toBe(true);
    setHidden(false);
    const reopened = FakeEventSource.last!;
    expect(reopened).not.toBe(stream);
    expect(reopened.url).toBe("/events/stream?last_event_id=31");
  });

  test("a deleted event marks the element; other objects' events do nothing", () => {
    const { document, stream, reloads } = run('<p data-live="note" data-live-id="note_1" data-live-reload>a note</p>');
    stream!.emit("note.updated", { id: "note_2" });
    stream!.emit("note.deleted", { id: "note_1" });
    expect(document.querySelector("p")!.hasAttribute("data-live-deleted")).toBe(true);
    expect(reloads()).toBe(0);
  });

  test("a swapped fragment keeps the playing <audio> element and announces its new state", async () => {
    const page = (status: string, extra: string) =>
      `<div data-live="podcast" data-live-id="pod_1" data-live-fragment="/podcasts/pod_1/live" data-live-announce="Status: ${status}"><button id="b">Play</button>${extra}</div>`;
    const { document, stream, settle } = run(page("Ready", '<audio src="/podcasts/pod_1/audio"></audio>'), {
      "/podcasts/pod_1/live": {
        status: 200,
        markup: page("Ready again", '<audio src="/podcasts/pod_1/audio"></audio><ol class="transcript"></ol>'),
      },
    });
    const audio = document.querySelector("audio")!;
    (audio as unknown as { playing: boolean }).playing = true;
    (document.getElementById("b") as unknown as { focus(): void }).focus();
    stream!.emit("podcast.updated", { id: "pod_1", status: "ready" });
    await settle();
    expect(document.querySelector(".transcript")).not.toBeNull();
    expect(document.querySelector("audio")).toBe(audio);
    expect((document.querySelector("audio") as unknown as { playing?: boolean }).playing).toBe(true);
    expect(document.querySelector(".live-announcer")!.getAttribute("role")).toBe("status");
    expect(document.querySelector(".live-announcer")!.textContent).toBe("Status: Ready again");
  });

  test("progress for a fragment without a bar refreshes it; data-live-also follows another kind's events", async () => {
    const markup = (n: number) =>
      `<div data-live="import" data-live-id="imp_1" data-live-fragment="/imp/live" data-live-also="source"><span>${n} of 4</span></div>`;
    let n = 0;
    const pages = {
      get "/imp/live"() {
        n++;
        return { status: 200, markup: markup(n) };
      },
    };
    const { document, stream, fetched, settle } = run(markup(0), pages);
    stream!.emit("import.progress", { id: "imp_1", status: "running" });
    await settle();
    expect(document.querySelector("span")!.textContent).toBe("1 of 4");
    stream!.emit("source.updated", { id: "src_9", status: "ready" });
    await settle();
    expect(fetched).toEqual(["/imp/live", "/imp/live"]);
    expect(document.querySelector("span")!.textContent).toBe("2 of 4");
    stream!.emit("source.progress", { id: "src_9" }); // not a stored change: ignored
    await settle();
    expect(fetched.length).toBe(2);
  });
});
