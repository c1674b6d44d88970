// The live-updates script, served as /assets/live.js (CSP: script-src 'self'). It follows the
// page's markup convention below; pages stay complete without it (a reload shows the same state).
//
// Live updates convention — mark server-rendered elements, the script keeps them current from the
// user's event stream (/events/stream, Server-Sent Events):
//
//   data-live="<kind>" data-live-id="<id>"   an element showing one object; <kind> is the event
//       type's prefix (source, notebook, note, highlight, podcast, run) and <id> the object's id (src_…,
//       pod_…, run_…), matched against the event's data.id.
//   Then, on the same element, what to do when a stored event for that object arrives:
//     data-live-fragment="<path>"  GET that same-origin path and replace the element with the one
//                                  element it returns (mark that one again to stay live);
//     data-live-reload             reload the page (for pages whose whole body depends on the state);
//     neither                      update the fields below in place.
//   Inside it (or on it):
//     data-live-field="<name>"     textContent := the event's data.<name> (dots reach nested
//                                  values: step.status); data-live-value := the same, for CSS.
//                                  Always text: never parsed as HTML.
//     data-live-progress           a <progress> (or role=progressbar) element: its value := data.percent
//                                  of <kind>.progress events, and it is un-hidden while they come.
//                                  Progress events also update fields (data-live-field="detail").
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
    "podcast.deleted", "podcast.progress", "highlight.created", "highlight.updated", "highlight.deleted", "run.started", "run.step_finished", "run.succeeded", "run.failed"];
  var busy = new WeakMap();
  var reloading = false;

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

  // One fetch per element at a time; events that arrive meanwhile cause one more fetch after it.
  function refresh(el) {
    var path = el.getAttribute("data-live-fragment");
    if (!path || !sameOrigin(path)) return;
    var state = busy.get(el);
    if (state) return void (state.again = true);
    busy.set(el, (state = { again: false }));
    fetch(path, { credentials: "same-origin", headers: { accept: "text/html" } })
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
        el.replaceWith(next);
        if (state.again) refresh(next);
      }, function () {
        busy.delete(el);
      });
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
      if (el.getAttribute("data-live") !== kind || el.getAttribute("data-live-id") !== id) continue;
      if (action === "progress") {
        setProgress(el, data);
        setFields(el, data);
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
