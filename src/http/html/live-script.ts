// The live-updates script, served as /assets/live.js (CSP: script-src 'self'). It follows the
// page's markup convention below; pages stay complete without it (a reload shows the same state).
//
// Live updates convention — mark server-rendered elements, the script keeps them current from the
// user's event stream (/events/stream, Server-Sent Events):
//
//   data-live="<kind>" data-live-id="<id>"   an element showing one object; <kind> is the event
//       type's prefix (source, notebook, note, highlight, podcast, run, import, search_quality) and <id>
//       the object's id (src_…, pod_…, run_…, imp_…, sqr_…), matched against the event's data.id.
//   Then, on the same element, what to do when a stored event for that object arrives:
//     data-live-fragment="<path>"  GET that same-origin path and replace the element with the one
//                                  element it returns (mark that one again to stay live). Focus
//                                  stays on the element with the same id, and an <audio> with the
//                                  same src is kept as it is (playing on, at its position);
//     data-live-reload             reload the page (for pages whose whole body depends on the state);
//     neither                      update the fields below in place.
//   On a fragment element:
//     data-live-announce="<text>"  said by a polite live region when a new fragment brings another
//                                  text ("Status: Ready"), since a replaced region is not announced;
//     data-live-also="<kind> …"    refresh also on any stored event of these kinds (an import's page
//                                  follows its sources being fetched), at most once a second.
//   Inside it (or on it):
//     data-live-field="<name>"     textContent := the event's data.<name> (dots reach nested
//                                  values: step.status); data-live-value := the same, for CSS.
//                                  Always text: never parsed as HTML.
//     data-live-progress           a <progress> (or role=progressbar) element: its value := data.percent
//                                  of <kind>.progress events, and it is un-hidden while they come.
//                                  Progress events also update fields (data-live-field="detail").
//                                  A fragment element without such a bar is refreshed instead.
//   A <kind>.deleted event sets data-live-deleted on the element (the stylesheet greys it out).
//   data-live-since="<cursor>"     on any element: the event cursor the page was rendered at; the
//                                  stream resumes after the lowest one, so nothing is missed between
//                                  rendering and connecting.
//
// The stream is opened only on pages with a [data-live] element, closed while the tab is hidden
// (and reopened, resuming after the last event seen, when it is shown) and when the page goes away.
export const LIVE_SCRIPT = `"use strict";
(function () {
  if (!window.EventSource || !document.querySelector("[data-live]")) return;
  var TYPES = ["source.created", "source.updated", "source.deleted", "notebook.created", "notebook.updated",
    "notebook.deleted", "note.created", "note.updated", "note.deleted", "podcast.created", "podcast.updated",
    "podcast.deleted", "podcast.progress", "highlight.created", "highlight.updated", "highlight.deleted", "run.started",
    "run.step_finished", "run.succeeded", "run.failed", "import.progress", "search_quality.progress"];
  var busy = new WeakMap();
  var reloading = false;
  var MIN_GAP_MS = 1000;

  // One polite live region for the whole page: replaced regions are not announced by themselves.
  var announcer = document.createElement("div");
  announcer.setAttribute("role", "status");
  announcer.className = "live-announcer";
  document.body.appendChild(announcer);
  function announce(text) {
    announcer.textContent = "";
    setTimeout(function () { announcer.textContent = text; }, 50);
  }

  function since() {
    var lowest = null;
    var marked = document.querySelectorAll("[data-live-since]");
    for (var i = 0; i < marked.length; i++) {
      var v = marked[i].getAttribute("data-live-since");
      if (/^[0-9]+$/.test(v) && (lowest === null || Number(v) < lowest)) lowest = Number(v);
    }
    return lowest;
  }

  function valueAt(data, path) {
    var parts = path.split(".");
    var v = data;
    for (var i = 0; i < parts.length; i++) {
      if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, parts[i])) return undefined;
      v = v[parts[i]];
    }
    return v;
  }

  function within(el, selector) {
    var found = Array.prototype.slice.call(el.querySelectorAll(selector));
    if (el.matches(selector)) found.unshift(el);
    return found;
  }

  function setFields(el, data) {
    var fields = within(el, "[data-live-field]");
    for (var i = 0; i < fields.length; i++) {
      var v = valueAt(data, fields[i].getAttribute("data-live-field"));
      if (v === undefined) continue;
      var text = v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
      fields[i].textContent = text;
      fields[i].setAttribute("data-live-value", text);
    }
  }

  function setProgress(el, data) {
    var bars = within(el, "[data-live-progress]");
    var pct = Math.max(0, Math.min(100, Number(data.percent) || 0));
    for (var i = 0; i < bars.length; i++) {
      bars[i].removeAttribute("hidden");
      bars[i].setAttribute("value", String(pct));
      bars[i].setAttribute("aria-valuenow", String(pct));
    }
  }

  function sameOrigin(path) {
    try {
      return new URL(path, location.href).origin === location.origin;
    } catch (e) {
      return false;
    }
  }

  // What the reader is in the middle of survives the swap: the focused control and a playing <audio>.
  function swap(el, next) {
    var active = document.activeElement;
    var focusId = active && active !== document.body && el.contains(active) ? active.id : "";
    var olds = el.querySelectorAll("audio[src]");
    for (var i = 0; i < olds.length; i++) {
      var src = olds[i].getAttribute("src");
      var fresh = next.querySelectorAll("audio[src]");
      for (var j = 0; j < fresh.length; j++) {
        if (fresh[j].getAttribute("src") === src) {
          fresh[j].replaceWith(olds[i]);
          break;
        }
      }
    }
    var before = el.getAttribute("data-live-announce");
    el.replaceWith(next);
    var after = next.getAttribute("data-live-announce");
    if (after && after !== before) announce(after);
    if (focusId) {
      var again = document.getElementById(focusId);
      if (again && again.focus) again.focus();
    }
  }

  // One fetch per element at a time; events that arrive meanwhile cause one more fetch after it.
  function refresh(el) {
    var path = el.getAttribute("data-live-fragment");
    if (!path || !sameOrigin(path)) return;
    var state = busy.get(el);
    if (state) return void (state.again = true);
    busy.set(el, (state = { again: false }));
    fetch(path, { credentials: "same-origin", headers: { accept: "text/html" }, redirect: "error" })
      .then(function (res) {
        if (res.status === 404) el.setAttribute("data-live-deleted", "");
        return res.ok ? res.text() : null;
      })
      .then(function (markup) {
        busy.delete(el);
        if (markup === null || !el.isConnected) return;
        var t = document.createElement("template");
        t.innerHTML = markup; // server-rendered and escaped; scripts in a template never run
        var next = t.content.firstElementChild;
        if (!next) return;
        swap(el, next);
        if (state.again) refresh(next);
      }, function () {
        busy.delete(el);
      });
  }

  // Refreshes caused by other objects' events (data-live-also) come at most once a second per object.
  var lastAlso = {};
  var pendingAlso = {};
  function refreshSoon(el) {
    var key = el.getAttribute("data-live") + " " + el.getAttribute("data-live-id");
    if (pendingAlso[key]) return;
    pendingAlso[key] = true;
    setTimeout(function () {
      pendingAlso[key] = false;
      lastAlso[key] = Date.now();
      var els = document.querySelectorAll("[data-live-also]");
      for (var i = 0; i < els.length; i++)
        if (els[i].getAttribute("data-live") + " " + els[i].getAttribute("data-live-id") === key) refresh(els[i]);
    }, Math.max(0, (lastAlso[key] || 0) + MIN_GAP_MS - Date.now()));
  }

  function apply(type, body) {
    var dot = type.indexOf(".");
    var kind = type.slice(0, dot);
    var action = type.slice(dot + 1);
    var data = body.data || {};
    var id = data.id;
    if (typeof id !== "string") return;
    var els = document.querySelectorAll("[data-live]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el.getAttribute("data-live") !== kind || el.getAttribute("data-live-id") !== id) {
        var also = (el.getAttribute("data-live-also") || "").split(" ");
        if (action !== "progress" && also.indexOf(kind) >= 0) refreshSoon(el);
        continue;
      }
      if (action === "progress") {
        if (el.hasAttribute("data-live-fragment") && !within(el, "[data-live-progress]").length) refresh(el);
        else {
          setProgress(el, data);
          setFields(el, data);
        }
        continue;
      }
      if (action === "deleted") el.setAttribute("data-live-deleted", "");
      if (el.hasAttribute("data-live-reload") && action !== "deleted") {
        if (!reloading) {
          reloading = true;
          setTimeout(function () { location.reload(); }, 50);
        }
      } else if (el.hasAttribute("data-live-fragment")) {
        refresh(el);
      } else {
        setFields(el, data);
      }
    }
  }

  // The last event seen (or the page's own cursor): where a reopened stream resumes.
  var cursor = since();
  var source = null;
  function connect() {
    source = new EventSource("/events/stream" + (cursor === null ? "" : "?last_event_id=" + cursor));
    TYPES.forEach(function (type) {
      source.addEventListener(type, function (e) {
        if (/^[0-9]+$/.test(e.lastEventId || "")) cursor = Number(e.lastEventId);
        try {
          apply(type, JSON.parse(e.data));
        } catch (err) {
          // a malformed event changes nothing on the page
        }
      });
    });
  }
  function disconnect() {
    if (source) source.close();
    source = null;
  }
  connect();
  // A hidden tab gives its connection back (browsers allow few per site) and catches up when shown.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) disconnect();
    else if (!source) connect();
  });
  window.addEventListener("pagehide", disconnect);
  // Back from the back-forward cache the stream is closed and the page may be stale: load it afresh.
  window.addEventListener("pageshow", function (e) { if (e.persisted) location.reload(); });
})();
`;

/** Where pages load it from; the version changes with the script, so browsers may cache it for a year. */
export const LIVE_SCRIPT_PATH = `/assets/live.js?v=${new Bun.CryptoHasher("sha256").update(LIVE_SCRIPT).digest("hex").slice(0, 12)}`;
