// recall.js: "@" typed in a field's label, help text or options, in the
// Build tab's panel, offers the answers of the pages before the field's
// (and the hidden fields, known from the start) by their labels; the one
// chosen goes in as {{name}}, which the form fills with the visitor's
// answer. Without it an owner types {{name}} by hand; the server checks
// both alike when the field is saved.
(function () {
  "use strict";

  var list = null; // the open listbox
  var input = null; // the text it inserts into
  var at = -1; // where the "@" is in input's value
  var active = 0;

  // choices lists the fields a text of the field of li may recall:
  // data-recallable holds the page from which an answer is known (0 for
  // a hidden field), data-page each field's own page.
  function choices(li) {
    var page = Number(li.getAttribute("data-page")) || 0;
    var out = [];
    document.querySelectorAll("[data-builder-fields] > li[data-recallable]").forEach(function (f) {
      var from = Number(f.getAttribute("data-recallable"));
      if (f !== li && (from === 0 || from < page)) {
        var label = f.querySelector(".builder-field-label");
        out.push({ name: f.getAttribute("data-field"), label: label ? label.textContent.trim() : "" });
      }
    });
    return out;
  }

  function close() {
    if (list) list.remove();
    if (input) {
      input.removeAttribute("aria-activedescendant");
      input.removeAttribute("aria-controls");
      input.removeAttribute("aria-expanded");
      input.removeAttribute("aria-autocomplete");
      input.removeAttribute("role");
    }
    list = null;
    input = null;
  }

  function mark(i) {
    var items = list.querySelectorAll("[role=option]");
    active = (i + items.length) % items.length;
    items.forEach(function (item, k) {
      item.setAttribute("aria-selected", String(k === active));
    });
    input.setAttribute("aria-activedescendant", items[active].id);
  }

  function choose(i) {
    var item = list.querySelectorAll("[role=option]")[i];
    var token = "{{" + item.getAttribute("data-name") + "}}";
    var v = input.value;
    var target = input;
    target.value = v.slice(0, at) + token + v.slice(at + 1);
    close();
    target.focus();
    target.setSelectionRange(at + token.length, at + token.length);
    target.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function open(el, li) {
    var found = choices(li);
    close();
    if (found.length === 0) return;
    input = el;
    at = el.selectionStart - 1;
    list = document.createElement("ul");
    list.className = "builder-recall";
    list.id = el.id + "-recall";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Answers to show here");
    found.forEach(function (f, i) {
      var item = document.createElement("li");
      item.id = list.id + "-" + i;
      item.setAttribute("role", "option");
      item.setAttribute("data-name", f.name);
      item.textContent = f.label && f.label !== f.name ? f.label + " (" + f.name + ")" : f.name;
      item.addEventListener("mousedown", function (e) {
        e.preventDefault(); // keep the focus in the input
        choose(i);
      });
      list.appendChild(item);
    });
    el.insertAdjacentElement("afterend", list);
    // While the list is open the input is a combobox of it.
    el.setAttribute("role", "combobox");
    el.setAttribute("aria-autocomplete", "list");
    el.setAttribute("aria-controls", list.id);
    el.setAttribute("aria-expanded", "true");
    mark(0);
  }

  function textInput(el) {
    return el.matches && el.matches('.builder-editor input[name="label"], .builder-editor input[name="help"], .builder-editor textarea[name="options"]');
  }

  document.addEventListener("input", function (e) {
    var el = e.target;
    if (!textInput(el)) return;
    var li = el.closest("[data-builder-fields] > li");
    var pos = el.selectionStart;
    if (li && e.inputType === "insertText" && e.data === "@" && el.value.charAt(pos - 1) === "@") {
      open(el, li);
    } else if (el === input && (pos <= at || el.value.charAt(at) !== "@")) {
      close();
    }
  });

  document.addEventListener("keydown", function (e) {
    if (!list || e.target !== input) return;
    switch (e.key) {
      case "ArrowDown":
        mark(active + 1);
        break;
      case "ArrowUp":
        mark(active - 1);
        break;
      case "Enter":
        choose(active);
        chose = true;
        break;
      case "Tab":
        close();
        return;
      case "Escape":
        close();
        break;
      default:
        return;
    }
    // Enter chooses, and neither saves the field nor reaches the
    // builder's own keys: the list listens first.
    e.preventDefault();
    e.stopPropagation();
  }, true);

  // The Enter that chose an answer does not send the panel's form either,
  // whichever event a browser submits it on.
  var chose = false;
  document.addEventListener("keypress", function (e) {
    if (chose && e.key === "Enter") e.preventDefault();
  }, true);
  document.addEventListener("keyup", function () { chose = false; }, true);

  document.addEventListener("focusout", function (e) {
    if (e.target === input) close();
  });
})();
