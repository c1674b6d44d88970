// The reader's script, served as /assets/reader.js (CSP: script-src 'self'). Progressive enhancement
// only — the page's forms do all of it without script:
//   - the "Aa" panel applies a change at once (data attributes on #reader) and saves it in the background;
//   - reading progress is saved as the person scrolls (at most every 3 s, and as the page is left, by
//     sendBeacon), shown in the toolbar's bar, and the page reopens where they stopped (unless the
//     address names a place in it); reaching the end saves 1, which marks the source read;
//   - the toolbar's panels close on Escape or a click elsewhere, one open at a time;
//   - the outline marks the section being read;
//   - the tag field completes the tag being typed after the last comma from the library's tags.
import { HIGHLIGHT_SCRIPT } from "./reader-highlight-script.ts";

const CORE = `
  var reader = document.getElementById("reader");
  if (!reader) return;
  var csrfInput = reader.querySelector('input[name="csrf"]');
  var csrf = csrfInput ? csrfInput.value : "";
  var sourceId = reader.getAttribute("data-source");

  function post(path, fields, beacon) {
    var body = new URLSearchParams();
    body.set("csrf", csrf);
    for (var k in fields) if (Object.prototype.hasOwnProperty.call(fields, k)) body.set(k, fields[k]);
    if (beacon && navigator.sendBeacon && navigator.sendBeacon(path, body)) return Promise.resolve(null);
    return fetch(path, { method: "POST", body: body, credentials: "same-origin", redirect: "manual", keepalive: true,
      headers: { accept: "application/json" } });
  }

  // Panels: one open at a time, closed by Escape or a click outside.
  var pops = reader.querySelectorAll("details[data-pop]");
  function closePops(except) {
    for (var i = 0; i < pops.length; i++) if (pops[i] !== except && pops[i].open) pops[i].open = false;
  }
  for (var i = 0; i < pops.length; i++) {
    pops[i].addEventListener("toggle", function (e) { if (e.target.open) closePops(e.target); });
  }
  document.addEventListener("click", function (e) {
    for (var i = 0; i < pops.length; i++) if (pops[i].open && !pops[i].contains(e.target)) pops[i].open = false;
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    for (var i = 0; i < pops.length; i++) {
      if (!pops[i].open) continue;
      pops[i].open = false;
      pops[i].querySelector("summary").focus();
    }
  });

  // Tag completions: the datalist holds the library's tags; a browser completes the whole field, so
  // each option becomes what is typed up to the last comma followed by a tag not in the field yet.
  var tagField = document.getElementById("f-tags");
  var tagList = reader.querySelector("datalist[data-tag-names]");
  if (tagField && tagList) {
    var tagNames = [];
    for (var t = 0; t < tagList.options.length; t++) tagNames.push(tagList.options[t].value);
    var completeTags = function () {
      var value = tagField.value;
      var cut = value.lastIndexOf(",");
      var head = cut < 0 ? "" : value.slice(0, cut + 1) + " ";
      var have = {};
      value.split(",").forEach(function (part) { have[part.trim().toLocaleLowerCase()] = true; });
      var typed = (cut < 0 ? value : value.slice(cut + 1)).trim().toLocaleLowerCase();
      delete have[typed];
      var frag = document.createDocumentFragment();
      tagNames.forEach(function (name) {
        if (have[name.toLocaleLowerCase()]) return;
        var o = document.createElement("option");
        o.value = head + name;
        frag.appendChild(o);
      });
      tagList.replaceChildren(frag);
    };
    tagField.addEventListener("input", completeTags);
    tagField.addEventListener("focus", completeTags);
  }

  // Links to the panels below the article open the disclosure they lead to.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#r-"]');
    if (!a) return;
    var target = document.getElementById(a.getAttribute("href").slice(1));
    var d = target && (target.tagName === "DETAILS" ? target : target.querySelector("details"));
    if (d) d.open = true;
    closePops(null);
  });

  // Typography and theme: applied at once, saved in the background.
  var settings = reader.querySelector("form[data-reader-settings]");
  if (settings) {
    var saveButton = settings.querySelector("[data-settings-save]");
    if (saveButton) saveButton.parentNode.hidden = true;
    var apply = function () {
      var f = new FormData(settings);
      reader.setAttribute("data-font", f.get("reader_font") || "serif");
      reader.setAttribute("data-size", f.get("reader_size") || "19");
      reader.setAttribute("data-line-height", (Math.round(Number(f.get("reader_line_height") || 1.6) * 20) / 20).toFixed(2));
      reader.setAttribute("data-width", f.get("reader_width") || "medium");
      reader.setAttribute("data-theme", f.get("reader_theme") || "auto");
      var fields = {};
      f.forEach(function (v, k) { if (k !== "csrf") fields[k] = v; });
      post(settings.action, fields, false).catch(function () {});
    };
    settings.addEventListener("change", apply);
    settings.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  }

  // Reading progress.
  var article = document.getElementById("r-article");
  var bar = document.getElementById("r-progress");
  if (!article) return;
  var saved = Math.max(0, Math.min(1, Number(reader.getAttribute("data-progress")) || 0));
  var sent = saved;
  var lastSent = 0;
  var timer = null;
  var expectY = null;
  var moved = false;
  var PERIOD = 3000;
  var toc = document.querySelectorAll(".r-toc a");
  var headings = [];
  for (var t = 0; t < toc.length; t++) {
    var h = document.getElementById(toc[t].getAttribute("href").slice(1));
    if (h) headings.push({ link: toc[t], heading: h });
  }

  function fraction() {
    var r = article.getBoundingClientRect();
    if (r.height <= 0) return 0;
    var f = (window.innerHeight - r.top) / r.height;
    if (f >= 0.995) return 1;
    return Math.max(0, Math.round(f * 1000) / 1000);
  }
  function markedRead() {
    reader.setAttribute("data-read", "");
    var form = reader.querySelector('form[data-state="read"]');
    if (!form) return;
    form.querySelector('input[name="read"]').value = "false";
    var button = form.querySelector("button");
    button.classList.add("on");
    button.title = "Mark as unread";
    button.querySelector("span").textContent = "Mark as unread";
  }
  function send(beacon) {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!moved) return;
    var f = fraction();
    if (Math.abs(f - sent) < 0.001) return;
    sent = f;
    lastSent = Date.now();
    post("/library/sources/" + sourceId + "/reader/progress", { progress: String(f) }, beacon).catch(function () {});
    if (f === 1) markedRead();
  }
  function show() {
    var f = fraction();
    if (bar) { bar.value = Math.round(f * 100); bar.textContent = Math.round(f * 100) + " %"; }
    var current = null;
    for (var i = 0; i < headings.length; i++) if (headings[i].heading.getBoundingClientRect().top < 120) current = headings[i];
    for (var j = 0; j < headings.length; j++) {
      if (headings[j] === current) headings[j].link.setAttribute("aria-current", "true");
      else headings[j].link.removeAttribute("aria-current");
    }
    return f;
  }
  var frame = 0;
  window.addEventListener("scroll", function () {
    if (!frame) frame = requestAnimationFrame(function () { frame = 0; show(); });
    // The scroll this script made itself (reopening at the saved place) is not the person reading.
    if (expectY !== null && Math.abs(window.scrollY - expectY) < 2) return;
    expectY = null;
    moved = true;
    if (fraction() === 1 && sent !== 1) return send(false);
    if (!timer) timer = setTimeout(function () { send(false); }, Math.max(0, PERIOD - (Date.now() - lastSent)));
  }, { passive: true });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") send(true); });
  window.addEventListener("pagehide", function () { send(true); });

  // Reopen where the person stopped: the saved fraction's line at the bottom of the screen.
  function restore() {
    if (location.hash || !(saved > 0 && saved < 1)) return;
    var r = article.getBoundingClientRect();
    var y = r.top + window.scrollY + saved * r.height - window.innerHeight;
    if (y <= 0) return;
    window.scrollTo({ top: y, left: 0, behavior: "instant" });
    expectY = window.scrollY;
  }
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  restore();
  // Images above the place may load and push it down: place it again if the person has not moved yet.
  window.addEventListener("load", function () { if (!moved) restore(); show(); });
  show();
`;

export const READER_SCRIPT = `"use strict";
(function () {${CORE}
})();
(function () {${HIGHLIGHT_SCRIPT}
})();
`;

export const READER_SCRIPT_PATH = `/assets/reader.js?v=${new Bun.CryptoHasher("sha256").update(READER_SCRIPT).digest("hex").slice(0, 12)}`;
