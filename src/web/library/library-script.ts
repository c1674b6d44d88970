// The Library page's script, served as /assets/library.js (CSP: script-src 'self'). Progressive
// enhancement only: every control is a form that works without it. With it, a card's and the bulk
// bar's forms are sent by fetch and the answer (the cards as they are now, and whether each still
// belongs on this page) is swapped in; a polite live region says what happened; and the keys
// j/k o/Enter e f t x a ? drive the list (`/`, search, is the layout script's).
export const LIBRARY_SCRIPT = `"use strict";
(function () {
  var root = document.querySelector("[data-library]");
  if (!root || !window.fetch) return;
  var list = root.querySelector("[data-list]");
  var say = document.getElementById("lib-announce");
  var bulk = document.getElementById("bulk");
  var dialog = document.getElementById("keys");
  var selected = new Set();
  var focusedId = null;
  var sayTimer = null;

  function cards() { return list ? Array.prototype.slice.call(list.querySelectorAll("[data-card]")) : []; }
  function cardOf(el) { return el && el.closest ? el.closest("[data-card]") : null; }
  function idOf(card) { return card.getAttribute("data-live-id"); }
  function byId(id) { return id ? document.getElementById("s-" + id) : null; }
  function titleOf(card) { var a = card.querySelector("a.title"); return a ? a.textContent.trim() : ""; }

  function announce(text) {
    if (!say) return;
    say.textContent = "";
    // A change of text, even the same words again, is read out.
    setTimeout(function () { say.textContent = text; say.classList.add("on"); }, 30);
    clearTimeout(sayTimer);
    sayTimer = setTimeout(function () { say.classList.remove("on"); }, 5000);
  }

  // Selection: kept by id, so a card re-rendered by live updates or an action stays selected.
  function syncSelection() {
    var boxes = root.querySelectorAll("input.pick");
    for (var i = 0; i < boxes.length; i++) boxes[i].checked = selected.has(boxes[i].value);
    var n = selected.size;
    var count = root.querySelector("[data-sel-count]");
    if (count) count.textContent = n === 1 ? "1 selected" : n + " selected";
    if (bulk) bulk.classList.toggle("has-selection", n > 0);
    var all = root.querySelector("[data-pick-all]");
    if (all) {
      var every = cards().length > 0 && cards().every(function (c) { return selected.has(idOf(c)); });
      all.textContent = every ? "Clear the selection" : "Select all on this page";
      all.setAttribute("data-every", every ? "1" : "");
    }
  }
  var initial = root.querySelectorAll("input.pick:checked");
  for (var s = 0; s < initial.length; s++) selected.add(initial[s].value);
  root.addEventListener("change", function (e) {
    var box = e.target;
    if (!box.classList || !box.classList.contains("pick")) return;
    if (box.checked) selected.add(box.value); else selected.delete(box.value);
    syncSelection();
  });
  var pickAll = root.querySelector("[data-pick-all]");
  if (pickAll) pickAll.addEventListener("click", function (e) {
    e.preventDefault();
    var every = pickAll.getAttribute("data-every") === "1";
    cards().forEach(function (c) { if (every) selected.delete(idOf(c)); else selected.add(idOf(c)); });
    syncSelection();
    announce(every ? "Selection cleared." : selected.size + " selected.");
  });
  if (window.MutationObserver && list) new MutationObserver(function () {
    syncSelection();
    // A card the live updates replaced while focused gets the focus back.
    if (document.activeElement === document.body && byId(focusedId)) byId(focusedId).focus({ preventScroll: true });
  }).observe(list, { childList: true });
  root.addEventListener("focusin", function (e) { var c = cardOf(e.target); if (c) focusedId = idOf(c); });

  function fromMarkup(markup) {
    var t = document.createElement("template");
    t.innerHTML = markup; // server-rendered and escaped; scripts in a template never run
    return t.content.firstElementChild;
  }

  function focusCard(card, scroll) {
    if (!card) return;
    card.focus({ preventScroll: true });
    if (scroll !== false) card.scrollIntoView({ block: "nearest" });
    focusedId = idOf(card);
  }

  /** Puts the server's answer in place: a card still on this page is replaced, one that left is removed. */
  function apply(items, keepFocus) {
    var active = document.activeElement;
    items.forEach(function (item) {
      var old = byId(item.id);
      if (!old) return;
      // Where the focus was in the old card: on one of its actions (found again in the new card), or the card.
      var had = old.contains(active) ? active.getAttribute("data-act") || "card" : null;
      if (!item.in_view) {
        var all = cards();
        var at = all.indexOf(old);
        old.remove();
        selected.delete(item.id);
        if (had || focusedId === item.id) {
          var rest = cards();
          var next = rest[Math.min(at, rest.length - 1)];
          if (next) focusCard(next); else { var h = document.getElementById("list-h"); if (h) { h.tabIndex = -1; h.focus(); } }
        }
        return;
      }
      var fresh = fromMarkup(item.html);
      if (!fresh) return;
      old.replaceWith(fresh);
      if (had && keepFocus) {
        var same = had !== "card" && fresh.querySelector('[data-act="' + had + '"]');
        if (same) same.focus(); else focusCard(fresh, false);
      }
    });
    syncSelection();
  }

  function send(form, submitter, done) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    data.set("back", location.pathname + location.search);
    data.set("fragment", root.getAttribute("data-layout") === "list" ? "row" : "card");
    if (form === bulk) {
      data.delete("ids");
      selected.forEach(function (id) { data.append("ids", id); });
    }
    var buttons = form.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    return fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      credentials: "same-origin",
      headers: { accept: "application/json" },
    }).then(function (res) {
      return res.json().then(function (body) { return { ok: res.ok, body: body }; });
    }).then(function (r) {
      for (var i = 0; i < buttons.length; i++) if (buttons[i].isConnected) buttons[i].disabled = false;
      if (!r.ok) return announce((r.body && (r.body.detail || r.body.title)) || "That did not work.");
      apply(r.body.items || [], true);
      announce(r.body.message || "Done.");
      if (done) done(r.body);
    }, function () {
      for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
      announce("Could not reach the server. Nothing changed.");
    });
  }

  // Card forms and the bulk bar (all but Delete, which asks on its own page) go by fetch.
  root.addEventListener("submit", function (e) {
    var form = e.target;
    var submitter = e.submitter;
    var isCard = form.matches && form.matches("[data-card] form[action$='/triage']");
    var isBulk = form === bulk && !(submitter && submitter.value === "delete");
    if (!isCard && !isBulk) return;
    if (isBulk && selected.size === 0) { e.preventDefault(); return announce("Select some sources first (x or the checkboxes)."); }
    e.preventDefault();
    var details = form.closest("details");
    send(form, submitter, function () {
      if (isBulk) {
        var tag = bulk.querySelector("input[name=tag]");
        if (submitter && submitter.value === "tag" && tag) tag.value = "";
      }
    });
    if (details && isCard) details.open = false;
  });

  // A menu closes when the person clicks elsewhere or presses Escape in it.
  document.addEventListener("click", function (e) {
    var open = root.querySelectorAll("details.menu[open]");
    for (var i = 0; i < open.length; i++) if (!open[i].contains(e.target)) open[i].open = false;
  });
  root.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var menu = e.target.closest && e.target.closest("details.menu[open]");
    if (!menu) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });

  function current() {
    var c = cardOf(document.activeElement);
    return c || byId(focusedId);
  }
  function typing(t) {
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }
  function press(card, act) {
    var b = card && card.querySelector('[data-act="' + act + '"]');
    if (b) b.form.requestSubmit ? b.form.requestSubmit(b) : b.click();
  }

  var openKeys = document.querySelector("[data-keys-open]");
  if (openKeys && dialog && dialog.showModal) {
    openKeys.hidden = false;
    openKeys.addEventListener("click", function () { dialog.showModal(); });
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (dialog && dialog.open) return;
    if (typing(e.target)) return;
    var all = cards();
    var card = current();
    var i = card ? all.indexOf(card) : -1;
    switch (e.key) {
      case "j":
        focusCard(all[Math.min(all.length - 1, i + 1)]);
        break;
      case "k":
        focusCard(all[Math.max(0, i - 1)]);
        break;
      case "o":
      case "Enter":
        // Enter on a link or button inside the card does what they do.
        if (e.key === "Enter" && document.activeElement !== card) return;
        if (!card) return;
        location.href = card.querySelector("a.title").href;
        break;
      case "e":
        if (!card) return;
        press(card, "archive");
        break;
      case "f":
        if (!card) return;
        press(card, "favorite");
        break;
      case "t":
        if (!card) return;
        var menu = card.querySelector("details.menu");
        if (menu) menu.open = true;
        var field = card.querySelector("[data-tag-field]");
        if (field) field.focus();
        break;
      case "x":
        if (!card) return;
        var box = card.querySelector("input.pick");
        box.checked = !box.checked;
        if (box.checked) selected.add(box.value); else selected.delete(box.value);
        syncSelection();
        announce((box.checked ? "Selected " : "Unselected ") + titleOf(card) + ". " + selected.size + " selected.");
        break;
      case "a":
        var url = document.getElementById("f-url");
        if (!url) return;
        url.focus();
        break;
      case "?":
        if (dialog && dialog.showModal) dialog.showModal();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
  syncSelection();
})();
`;

/** Where the page loads it from; the version changes with the script, so browsers may cache it for good. */
export const LIBRARY_SCRIPT_PATH = `/assets/library.js?v=${new Bun.CryptoHasher("sha256").update(LIBRARY_SCRIPT).digest("hex").slice(0, 12)}`;
