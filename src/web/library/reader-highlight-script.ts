// The reader script's highlights part (see reader-script.ts). It finds quotes in the article the
// way the server anchors them (anchor.ts): the article's text with a space at every block boundary
// and <br>, every run of whitespace one space, ends trimmed, offsets in UTF-16 code units.
//   - selecting text in the article shows a popover: five colours and a note; choosing makes the
//     highlight (POST …/reader/highlights) and swaps in the highlights column, which the server renders;
//   - each highlight of the column that is not orphaned is marked inline with <mark>, split across
//     element boundaries, its first piece focusable; a mark leads to its entry in the column and back;
//   - the column's forms (recolour, note, delete) answer in place.
export const HIGHLIGHT_SCRIPT = `
  var reader = document.getElementById("reader");
  var article = document.getElementById("r-article");
  var pop = document.getElementById("r-hl-pop");
  if (!reader || !article || !pop) return;
  var sourceId = reader.getAttribute("data-source");
  var csrfInput = reader.querySelector('input[name="csrf"]');
  var csrf = csrfInput ? csrfInput.value : "";
  var BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|CAPTION|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|H[1-6]|HEADER|HR|IMG|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TBODY|TD|TFOOT|TH|THEAD|TR|UL)$/;
  var SPACE = /\\s/;
  var CONTEXT = 32;

  // The article's normalised text, and for each of its characters the text node and offset it came from.
  function index() {
    var ix = { text: "", nodes: [], offs: [], pos: new Map() };
    function gap(node, off) {
      if (ix.text.length && ix.text.charAt(ix.text.length - 1) !== " ") {
        ix.text += " "; ix.nodes.push(node); ix.offs.push(off);
      }
    }
    function walk(el) {
      for (var n = el.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === 3) {
          var v = n.nodeValue, pos = new Array(v.length + 1);
          for (var i = 0; i < v.length; i++) {
            pos[i] = ix.text.length;
            if (SPACE.test(v.charAt(i))) gap(n, i);
            else { ix.text += v.charAt(i); ix.nodes.push(n); ix.offs.push(i); }
          }
          pos[v.length] = ix.text.length;
          ix.pos.set(n, pos);
        } else if (n.nodeType === 1) {
          var block = BLOCK.test(n.tagName);
          if (block) gap(null, 0);
          walk(n);
          if (block) gap(null, 0);
        }
      }
    }
    walk(article);
    if (ix.text.charAt(ix.text.length - 1) === " ") { ix.text = ix.text.slice(0, -1); ix.nodes.pop(); ix.offs.pop(); }
    return ix;
  }

  function pointIndex(ix, container, offset) {
    if (container.nodeType === 3 && ix.pos.has(container)) return Math.min(ix.pos.get(container)[offset], ix.text.length);
    var r = document.createRange();
    r.setStart(container, offset);
    var found = ix.text.length;
    var done = false;
    ix.pos.forEach(function (p, node) {
      if (!done && r.comparePoint(node, 0) >= 0) { found = p[0]; done = true; }
    });
    return Math.min(found, ix.text.length);
  }

  // The selection as a quote selector, or null when it is not (only) in the article.
  function selector() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    var range = sel.getRangeAt(0);
    if (!article.contains(range.commonAncestorContainer)) return null;
    var ix = index();
    var start = pointIndex(ix, range.startContainer, range.startOffset);
    var end = pointIndex(ix, range.endContainer, range.endOffset);
    while (start < end && ix.text.charAt(start) === " ") start++;
    while (end > start && ix.text.charAt(end - 1) === " ") end--;
    if (end <= start) return null;
    return { exact: ix.text.slice(start, end), prefix: ix.text.slice(Math.max(0, start - CONTEXT), start),
      suffix: ix.text.slice(end, end + CONTEXT), start: start, end: end, rect: range.getBoundingClientRect() };
  }

  // Inline marks from the column's entries.
  function clearMarks() {
    var marks = article.querySelectorAll("mark.hl");
    for (var i = 0; i < marks.length; i++) {
      var m = marks[i];
      if (!m.parentNode) continue;
      while (m.firstChild) m.parentNode.insertBefore(m.firstChild, m);
      m.parentNode.removeChild(m);
    }
    article.normalize();
  }
  function applyMarks() {
    clearMarks();
    var ix = index();
    var items = document.querySelectorAll("#r-highlights li[data-highlight]:not([data-orphaned])");
    var segments = new Map();
    var order = [];
    for (var k = 0; k < items.length; k++) {
      var li = items[k], id = li.getAttribute("data-highlight");
      var start = Number(li.getAttribute("data-start")), end = Number(li.getAttribute("data-end"));
      var exact = (li.getAttribute("data-exact") || "").replace(/\\s+/g, " ").trim();
      if (!exact) continue;
      if (ix.text.slice(start, end) !== exact) {
        // Not where it was: the occurrence nearest the old place, if any.
        var best = -1;
        for (var at = ix.text.indexOf(exact); at !== -1; at = ix.text.indexOf(exact, at + 1))
          if (best < 0 || Math.abs(at - start) < Math.abs(best - start)) best = at;
        if (best < 0) continue;
        start = best; end = best + exact.length;
      }
      order.push(id);
      for (var i = start; i < end; i++) {
        var node = ix.nodes[i];
        if (!node) continue;
        var list = segments.get(node);
        if (!list) { list = []; segments.set(node, list); }
        var seg = list.length && list[list.length - 1].id === id ? list[list.length - 1] : null;
        if (seg) seg.to = ix.offs[i] + 1;
        else list.push({ id: id, color: li.getAttribute("data-color"), from: ix.offs[i], to: ix.offs[i] + 1 });
      }
    }
    var focusable = {};
    segments.forEach(function (list, node) {
      var cuts = [0, node.nodeValue.length];
      list.forEach(function (s) { cuts.push(s.from, s.to); });
      cuts = cuts.filter(function (c, i, a) { return a.indexOf(c) === i; }).sort(function (a, b) { return a - b; });
      var frag = document.createDocumentFragment();
      for (var c = 0; c + 1 < cuts.length; c++) {
        var a = cuts[c], b = cuts[c + 1];
        var piece = document.createTextNode(node.nodeValue.slice(a, b));
        var covering = list.filter(function (s) { return s.from <= a && s.to >= b; });
        var out = piece;
        for (var j = covering.length - 1; j >= 0; j--) {
          var mark = document.createElement("mark");
          mark.className = "hl hl-" + covering[j].color;
          mark.setAttribute("data-hl", covering[j].id);
          mark.appendChild(out);
          out = mark;
        }
        frag.appendChild(out);
      }
      node.parentNode.replaceChild(frag, node);
    });
    // One tab stop per highlight: its first piece in the text.
    var all = article.querySelectorAll("mark.hl");
    for (var m = 0; m < all.length; m++) {
      var hid = all[m].getAttribute("data-hl");
      if (focusable[hid]) continue;
      focusable[hid] = true;
      all[m].tabIndex = 0;
      all[m].id = "mark-" + hid;
    }
  }

  function send(path, fields) {
    var body = new URLSearchParams();
    body.set("csrf", csrf);
    for (var k in fields) if (Object.prototype.hasOwnProperty.call(fields, k)) body.set(k, fields[k]);
    return fetch(path, { method: "POST", body: body, credentials: "same-origin", headers: { accept: "application/json" } });
  }
  function problemText(res) {
    return res.json().then(function (p) { return (p.errors && p.errors[0] && p.errors[0].message) || p.detail || "It could not be saved."; },
      function () { return "It could not be saved."; });
  }

  // The column, re-rendered by the server after every change.
  function refresh(focusId) {
    return fetch("/library/sources/" + sourceId + "/reader/highlights", { credentials: "same-origin" })
      .then(function (res) { return res.ok ? res.text() : Promise.reject(res); })
      .then(function (markup) {
        var next = new DOMParser().parseFromString(markup, "text/html").getElementById("r-highlights");
        var now = document.getElementById("r-highlights");
        if (!next || !now) return;
        now.parentNode.replaceChild(document.importNode(next, true), now);
        applyMarks();
        if (focusId) {
          var item = document.getElementById("hl-" + focusId);
          var target = item && item.querySelector("[data-goto]");
          if (target) target.focus();
        }
      });
  }

  // The popover over a selection.
  var pending = null;
  var noteBox = pop.querySelector(".hl-pop-note");
  var noteField = pop.querySelector("textarea");
  var errorBox = pop.querySelector(".hl-pop-error");
  function hide() { pop.hidden = true; noteBox.hidden = true; errorBox.hidden = true; pending = null; }
  function show(sel) {
    pending = sel;
    pop.hidden = false;
    noteBox.hidden = true;
    errorBox.hidden = true;
    noteField.value = "";
    var width = pop.offsetWidth, height = pop.offsetHeight;
    var left = sel.rect.left + window.scrollX + sel.rect.width / 2 - width / 2;
    left = Math.max(window.scrollX + 8, Math.min(left, window.scrollX + document.documentElement.clientWidth - width - 8));
    var top = sel.rect.top + window.scrollY - height - 10;
    if (sel.rect.top < height + 70) top = sel.rect.bottom + window.scrollY + 10;
    pop.style.left = left + "px";
    pop.style.top = top + "px";
  }
  function create(color, note) {
    if (!pending) return;
    var sel = pending;
    var fields = { exact: sel.exact, prefix: sel.prefix, suffix: sel.suffix, start: String(sel.start), end: String(sel.end), color: color };
    if (note) fields.note = note;
    send("/library/sources/" + sourceId + "/reader/highlights", fields).then(function (res) {
      if (res.status !== 201) return problemText(res).then(function (t) { errorBox.textContent = t; errorBox.hidden = false; });
      hide();
      var s = window.getSelection();
      if (s) s.removeAllRanges();
      return refresh(null);
    }).catch(function () { errorBox.textContent = "It could not be saved."; errorBox.hidden = false; });
  }
  function maybeShow() {
    setTimeout(function () {
      var sel = selector();
      if (sel) show(sel);
      else if (!pop.contains(document.activeElement)) hide();
    }, 0);
  }
  article.addEventListener("mouseup", maybeShow);
  article.addEventListener("touchend", maybeShow);
  article.addEventListener("keyup", function (e) { if (e.shiftKey || e.key === "Shift") maybeShow(); });
  document.addEventListener("mousedown", function (e) { if (!pop.hidden && !pop.contains(e.target) && !article.contains(e.target)) hide(); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !pop.hidden) hide(); });
  // Clicking a colour must not clear the selection first.
  pop.addEventListener("mousedown", function (e) { if (e.target.closest("button")) e.preventDefault(); });
  pop.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    if (b.hasAttribute("data-color")) create(b.getAttribute("data-color"), "");
    else if (b.hasAttribute("data-note")) { noteBox.hidden = false; noteField.focus(); }
    else if (b.hasAttribute("data-save-note")) create("yellow", noteField.value.trim());
  });

  // A mark leads to its entry; an entry's quote leads to its mark.
  function toEntry(id) {
    var item = document.getElementById("hl-" + id);
    if (!item) return;
    item.scrollIntoView({ block: "nearest" });
    var link = item.querySelector("[data-goto]");
    if (link) link.focus();
  }
  article.addEventListener("click", function (e) {
    var m = e.target.closest && e.target.closest("mark.hl");
    if (m && window.getSelection().isCollapsed && !e.target.closest("a")) toEntry(m.getAttribute("data-hl"));
  });
  article.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && e.target.matches && e.target.matches("mark.hl")) toEntry(e.target.getAttribute("data-hl"));
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("#r-highlights [data-goto]");
    if (!link) return;
    var mark = document.getElementById("mark-" + link.getAttribute("data-goto"));
    if (!mark) return;
    e.preventDefault();
    mark.scrollIntoView({ block: "center" });
    mark.focus({ preventScroll: true });
  });
  // The column's forms, in place.
  document.addEventListener("submit", function (e) {
    var form = e.target.closest && e.target.closest("#r-highlights form[data-hl-form]");
    if (!form) return;
    e.preventDefault();
    var fields = {};
    new FormData(form).forEach(function (v, k) { if (k !== "csrf") fields[k] = v; });
    var item = form.closest("li[data-highlight]");
    var id = item && item.getAttribute("data-highlight");
    var deleting = /\\/delete$/.test(form.getAttribute("action"));
    send(form.getAttribute("action"), fields).then(function (res) {
      if (!res.ok) return problemText(res).then(function (t) {
        var box = form.querySelector(".field-error") || form.appendChild(document.createElement("p"));
        box.className = "field-error";
        box.setAttribute("role", "alert");
        box.textContent = t;
      });
      return refresh(deleting ? null : id);
    });
  });

  applyMarks();
`;
