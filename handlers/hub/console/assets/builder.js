// builder.js: the Build tab's field list, with a pointer and a keyboard.
// A click in the preview opens that field's editor in the list; a field
// dragged by its name to another place posts its move form with the new
// position; after a move the focus stays with the moved field. Every
// action works without it: the arrows move fields, the list is there.
// An address's countries get a filter, which without it is not shown; a
// calculation's names insert themselves in its formula.
// inplace.js edits the form in the preview itself.
(function () {
  "use strict";

  var LIST = "[data-builder-fields]";
  var ITEM = LIST + " > li";

  // pending is the move posted last: the field's name and the arrow
  // pressed, "" for a drop; the focus follows it once htmx swapped the
  // page in.
  var pending = null;
  // dragged is the list item being dragged.
  var dragged = null;
  // openNames are the fields whose editors were open before a swap.
  var openNames = [];

  function quote(name) {
    return '"' + (window.CSS && CSS.escape ? CSS.escape(name) : name.replace(/["\\]/g, "\\$&")) + '"';
  }

  function item(name) {
    return document.querySelector(ITEM + "[data-field=" + quote(name) + "]");
  }

  // previewField returns the name of the preview's field el is in, "".
  function previewField(el) {
    if (!el.closest) return "";
    var field = el.closest("#preview [data-hubform] .hubform-field");
    if (!field) return "";
    var slot = field.closest("[data-hubform-slot]");
    if (slot) return slot.getAttribute("data-hubform-slot");
    var control = field.querySelector("[name]");
    return control ? control.getAttribute("name") : "";
  }

  // openEditor opens the editor of the field called name and brings it
  // into sight; focus moves there on a click, not on a keyboard's tour
  // of the preview.
  function openEditor(name, focus) {
    var li = item(name);
    if (!li) return;
    var details = li.querySelector("details");
    details.open = true;
    document.querySelectorAll(".builder-field--current").forEach(function (el) {
      el.classList.remove("builder-field--current");
    });
    li.classList.add("builder-field--current");
    reveal(li);
    if (focus) details.querySelector("summary").focus({ preventScroll: true });
  }

  // reveal brings li into sight: in its own column beside the in-place
  // editor, so that the page under the pointer does not move.
  function reveal(li) {
    var main = li.closest(".builder-main");
    if (!document.documentElement.classList.contains("builder-inplace") || !main) {
      li.scrollIntoView({ block: "nearest" });
      return;
    }
    var r = li.getBoundingClientRect();
    var m = main.getBoundingClientRect();
    if (r.top < m.top || r.bottom > m.bottom) main.scrollTop += r.top - m.top - 8;
  }

  document.addEventListener("click", function (event) {
    var name = previewField(event.target);
    // In the in-place editor the focus stays in the preview.
    if (name) openEditor(name, !event.target.closest(".builder-inplace"));
  });
  document.addEventListener("focusin", function (event) {
    var name = previewField(event.target);
    if (name) openEditor(name, false);
  });

  // Drag and drop, HTML's own: a field's summary is its handle.
  function clearMarks() {
    document.querySelectorAll(".builder-field--before, .builder-field--after").forEach(function (el) {
      el.classList.remove("builder-field--before", "builder-field--after");
    });
  }

  function endDrag() {
    clearMarks();
    if (dragged) dragged.classList.remove("builder-field--dragging");
    dragged = null;
  }

  // dropTarget returns the item under the event and whether the drop goes
  // after it, or null.
  function dropTarget(event) {
    var li = event.target.closest && event.target.closest(ITEM);
    if (!li || !dragged || li === dragged || li.parentNode !== dragged.parentNode) return null;
    var box = li.getBoundingClientRect();
    return { li: li, after: event.clientY >= box.top + box.height / 2 };
  }

  document.addEventListener("dragstart", function (event) {
    var summary = event.target.closest && event.target.closest(ITEM + " > details > summary");
    if (!summary) return;
    dragged = summary.closest("li");
    dragged.classList.add("builder-field--dragging");
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", dragged.getAttribute("data-field"));
    }
  });

  document.addEventListener("dragover", function (event) {
    if (!dragged) return;
    clearMarks();
    var t = dropTarget(event);
    if (!t) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "move";
    t.li.classList.add(t.after ? "builder-field--after" : "builder-field--before");
  });

  document.addEventListener("drop", function (event) {
    var t = dropTarget(event);
    var li = dragged;
    endDrag();
    if (!t) return;
    event.preventDefault();
    var from = Number(li.getAttribute("data-index"));
    var to = Number(t.li.getAttribute("data-index")) + (t.after ? 1 : 0);
    if (to > from) to--;
    if (to !== from) move(li, to);
  });

  document.addEventListener("dragend", endDrag);

  // move posts the field's move form with the position it goes to,
  // through htmx as its arrows do.
  function move(li, to) {
    var form = li.querySelector("form.builder-move");
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "to";
    input.value = String(to);
    input.setAttribute("data-builder-drop", "");
    form.appendChild(input);
    pending = { name: li.getAttribute("data-field"), arrow: "" };
    form.requestSubmit();
  }

  // An arrow's move keeps the focus on that arrow of the moved field.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(ITEM + " > form.builder-move")) return;
    var arrow = event.submitter ? event.submitter.value : "";
    pending = { name: form.closest("li").getAttribute("data-field"), arrow: arrow };
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form.querySelectorAll) {
      form.querySelectorAll("input[data-builder-drop]").forEach(function (input) { input.remove(); });
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "workspace") return;
    openNames = [];
    document.querySelectorAll(ITEM + " > details[open]").forEach(function (d) {
      openNames.push(d.getAttribute("data-field"));
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    openNames.forEach(function (name) {
      var li = item(name);
      if (li) li.querySelector("details").open = true;
    });
    openNames = [];
    var p = pending;
    pending = null;
    if (!p) return;
    var li = item(p.name);
    if (!li) return;
    var target = null;
    if (p.arrow) {
      target = li.querySelector('form.builder-move button[value="' + p.arrow + '"]') ||
        li.querySelector("form.builder-move button");
    }
    (target || li.querySelector("summary")).focus();
  });

  // prepare makes the fields draggable and the preview's fields point to
  // their editors: only with this script do they.
  function prepare() {
    document.querySelectorAll(LIST).forEach(function (list) { list.classList.add("builder-dnd"); });
    document.querySelectorAll(ITEM + " > details > summary").forEach(function (summary) {
      summary.setAttribute("draggable", "true");
    });
    document.querySelectorAll(".builder-preview").forEach(function (el) { el.classList.add("builder-linked"); });
  }

  // A country list's filter hides the countries whose name does not hold
  // what is typed, accents aside, or whose code is not it; Enter in it
  // does not save the field.
  document.documentElement.classList.add("builder-filters");
  function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches("[data-country-filter]")) return;
    var q = fold(box.value.trim());
    var list = document.getElementById(box.getAttribute("aria-controls"));
    if (!list) return;
    var n = 0;
    list.querySelectorAll("li").forEach(function (li) {
      li.hidden = q !== "" && fold(li.textContent).indexOf(q) < 0 && li.getAttribute("data-code").toLowerCase() !== q;
      if (!li.hidden) n++;
    });
    var found = document.getElementById(list.id.replace(/-list$/, "-found"));
    if (found) found.textContent = q === "" ? "" : n === 0 ? "No country matches." : n === 1 ? "1 country matches." : n + " countries match.";
  });
  function noEnter(e) {
    if (e.key === "Enter" && e.target.matches && e.target.matches("[data-country-filter]")) e.preventDefault();
  }
  document.addEventListener("keydown", noEnter);
  document.addEventListener("keypress", noEnter);

  // A calculation's names: a click inserts one at the formula's cursor,
  // and the formula is checked again.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-formula-insert]");
    if (!button) return;
    var input = button.closest(".builder-formula").querySelector("[data-formula-input]");
    var text = button.getAttribute("data-formula-insert");
    var start = input.selectionStart == null ? input.value.length : input.selectionStart;
    var end = input.selectionEnd == null ? start : input.selectionEnd;
    var before = input.value.slice(0, start), after = input.value.slice(end);
    var pad = before !== "" && !/[\s(]$/.test(before) ? " " : "";
    input.value = before + pad + text + after;
    input.focus();
    input.setSelectionRange(before.length + pad.length + text.length, before.length + pad.length + text.length);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("htmx:load", prepare);
})();
