// The workflow editor's script, served as /assets/workflow-editor.js (CSP: script-src 'self'). It only
// adds to pages that work without it:
//   - "Add action" fetches the new action's card (the same POST as without script, with partial=1, so the
//     server reads the whole form for a unique id and the variables before it) and inserts it in place,
//     focused, instead of reloading the page; on any failure the button submits the form as usual;
//   - long lists of notebooks or workflows get their filter box (input.choice-filter) shown and working.
export const EDITOR_SCRIPT = `"use strict";
(function () {
  var form = document.querySelector("form.editor");
  if (!form || !window.fetch || !window.URLSearchParams || !window.FormData) return;

  function showFilters(root) {
    var boxes = root.querySelectorAll("input.choice-filter[hidden]");
    for (var i = 0; i < boxes.length; i++) boxes[i].hidden = false;
  }
  showFilters(form);

  form.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.classList || !box.classList.contains("choice-filter")) return;
    var list = document.getElementById(box.getAttribute("data-filter"));
    if (!list) return;
    var words = box.value.trim().toLowerCase();
    var items = list.tagName === "SELECT" ? list.options : list.children;
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      if (item.tagName === "OPTION" && (item.value === "" || item.selected)) continue;
      item.hidden = words !== "" && item.textContent.toLowerCase().indexOf(words) < 0;
    }
  });

  function listOf(path) {
    var lists = form.querySelectorAll("ol[data-list]");
    for (var i = 0; i < lists.length; i++) if (lists[i].getAttribute("data-list") === path) return lists[i];
    return null;
  }

  var plain = false;
  form.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button[data-add]") : null;
    if (!button || plain) return;
    var path = button.getAttribute("data-add");
    var list = listOf(path);
    if (!list) return;
    e.preventDefault();
    var data = new FormData(form);
    data.append("op", button.value);
    data.append("partial", "1");
    button.disabled = true;
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(data),
      credentials: "same-origin",
      headers: { accept: "text/html" },
    })
      .then(function (res) {
        if (!res.ok || res.headers.get("x-editor-fragment") !== "action") throw new Error("no fragment");
        return res.text();
      })
      .then(function (text) {
        var t = document.createElement("template");
        t.innerHTML = text.trim();
        var card = t.content.firstElementChild;
        if (!card) throw new Error("empty fragment");
        var last = list.lastElementChild;
        if (last) {
          var down = last.querySelector("button[value^='down:']");
          if (down) down.disabled = false;
        }
        list.appendChild(card);
        var empty = list.parentNode.querySelector(":scope > p.empty-list");
        if (empty && empty.previousElementSibling === list) empty.remove();
        showFilters(card);
        button.disabled = false;
        var first = card.querySelector("input:not([type=hidden]), select, textarea");
        if (first) first.focus();
      })
      .catch(function () {
        // Whatever went wrong, the form still does it without script: submit it with this button.
        button.disabled = false;
        plain = true;
        if (form.requestSubmit) form.requestSubmit(button);
        else button.click();
      });
  });
})();
`;

const version = new Bun.CryptoHasher("sha256").update(EDITOR_SCRIPT).digest("hex").slice(0, 12);
export const EDITOR_SCRIPT_PATH = `/assets/workflow-editor.js?v=${version}`;
