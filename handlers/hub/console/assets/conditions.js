// conditions.js: a field's condition rows (conditions.templ) follow the
// field chosen in each row: its comparisons, and its value as a list of
// its options, a number, a date or a text; the value is hidden for a
// comparison that takes none. Without it the server does the same when
// the panel is shown again ("Add condition", or a refused save).
(function () {
  "use strict";

  // data is the form's, held once by the page: every field a condition
  // may read, and the comparisons of each type.
  function data() {
    var holder = document.querySelector("[data-condition-data]");
    try {
      return holder && JSON.parse(holder.getAttribute("data-condition-data"));
    } catch (e) {
      return null;
    }
  }

  function option(value, label, selected) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    o.selected = selected;
    return o;
  }

  // takesValue reports whether the row's chosen comparison takes a value.
  function takesValue(row, d) {
    var field = d.fields[row.querySelector("[data-condition-field]").value];
    var op = row.querySelector("[data-condition-op]").value;
    var ops = field ? d.ops[field.type] || [] : [];
    for (var i = 0; i < ops.length; i++) {
      if (ops[i][0] === op) return ops[i][2] === "true";
    }
    return false;
  }

  function showValue(row, d) {
    row.querySelector("[data-condition-value]").hidden = !takesValue(row, d);
  }

  // fieldChanged fits the row's comparisons and value control to the
  // field now chosen, keeping what still fits.
  function fieldChanged(row) {
    var d = data(row);
    if (!d) return;
    var field = d.fields[row.querySelector("[data-condition-field]").value];
    if (!field) return;
    var op = row.querySelector("[data-condition-op]");
    var was = op.value;
    op.replaceChildren();
    (d.ops[field.type] || []).forEach(function (o, i) {
      op.appendChild(option(o[0], o[1], o[0] === was));
    });
    if (op.selectedIndex < 0) op.selectedIndex = 0;

    var box = row.querySelector("[data-condition-value]");
    var old = box.querySelector("input, select");
    var control;
    if (field.options) {
      control = document.createElement("select");
      field.options.forEach(function (o) {
        control.appendChild(option(o[0], o[1], o[0] === old.value));
      });
    } else {
      control = document.createElement("input");
      control.type = field.type === "number" ? "number" : field.type === "date" ? "date" : "text";
      if (field.type === "number") control.step = "any";
      control.value = old.tagName === "INPUT" && old.type === control.type ? old.value : "";
    }
    row.querySelector("[data-condition-shown]").value = row.querySelector("[data-condition-field]").value;
    control.id = old.id;
    control.name = old.name;
    old.replaceWith(control);
    showValue(row, d);
  }

  document.addEventListener("change", function (e) {
    var row = e.target.closest && e.target.closest("[data-condition-row]");
    if (!row) return;
    if (e.target.matches("[data-condition-field]")) fieldChanged(row);
    else if (e.target.matches("[data-condition-op]")) {
      var d = data(row);
      if (d) showValue(row, d);
    }
  });

  // After "Add condition" or a row's ✕, which htmx posts and swaps, the
  // focus goes to the new row's field, or back to "Add condition".
  var pending = null;
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest('button[name="conditionRows"]');
    if (button) pending = { editor: button.closest("[data-condition-editor]").id, verb: button.value.split(" ")[0] };
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!pending) return;
    var editor = document.getElementById(pending.editor);
    var verb = pending.verb;
    pending = null;
    if (!editor) return;
    var fields = editor.querySelectorAll("[data-condition-field]");
    var target = verb === "add" && fields.length ? fields[fields.length - 1] : editor.querySelector('button[name="conditionRows"][value^="add"]');
    if (target) target.focus();
  });

  // Rows the page or an htmx swap brought show their value only where
  // their comparison takes one.
  function init(root) {
    (root || document).querySelectorAll("[data-condition-row]").forEach(function (row) {
      var d = data(row);
      if (d) showValue(row, d);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(); });
  document.addEventListener("htmx:load", function (e) { init(e.target); });
})();
