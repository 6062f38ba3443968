// inplace.js: the Build tab's in-place editor. The preview becomes the
// form being edited: its texts (labels, help, options, page titles) are
// edited where they are shown; "+" between fields and "/" open the
// palette of field types; Alt+ArrowUp and Alt+ArrowDown, or a drag by
// the handle, move a field; its card makes it required or starts a new
// page after it. Each change posts one of the builder's actions, one at
// a time, and swaps in the page it answers; the focus goes back where it
// was. Without it, builder.js and the page's own forms do the same.
(function () {
  "use strict";

  var CARD = ".builder-card";
  var TEXT = ".builder-text";
  var queue = Promise.resolve();
  // restore runs once the next swap has settled: it puts the focus back.
  var restore = null;
  // dragged is the card being dragged by its handle.
  var dragged = null;
  // selected is the index of the chosen field: the panel shows it, and a
  // field added with "/" lands after it.
  var selected = -1;

  function builder() { return document.getElementById("builder"); }

  // listItem returns the list's item of the field called name.
  function listItem(name) {
    var found = null;
    document.querySelectorAll("[data-builder-fields] > li").forEach(function (li) {
      if (li.getAttribute("data-field") === name) found = li;
    });
    return found;
  }

  // send posts values to the builder's action at path (below the form's
  // page), one change at a time, each on the version the one before
  // saved; then swaps the page it gets in and runs after. It fetches and
  // swaps by itself, the editor first, and leaves htmx to take in the
  // rest of the page later: the owner sees the change sooner.
  function send(path, values, after) {
    queue = queue.then(function () {
      var b = builder();
      if (!b) return;
      var csrf = document.querySelector("#editor-state input[name=_csrf]");
      values.base = b.getAttribute("data-base");
      if (csrf) values[csrf.name] = csrf.value;
      var started = performance.now();
      document.documentElement.classList.add("builder-saving");
      return fetch(b.getAttribute("data-builder-url") + path, {
        method: "POST", body: new URLSearchParams(values), credentials: "same-origin", headers: { "HX-Request": "true", "X-Hubform-In-Place": "1" }
      }).then(function (res) {
        if (res.status === 403) throw new Error("Your role may not change this form: nothing was saved.");
        if (!res.ok) throw new Error("");
        return res.text();
      }).then(function (html) {
        swapIn(html, after);
        document.dispatchEvent(new CustomEvent("builder:saved", { detail: { path: path, ms: performance.now() - started } }));
      }).catch(function (err) {
        var notice = document.getElementById("notice");
        if (notice) notice.textContent = (err && err.message) || "The change was not saved: check the connection, then try again.";
      }).finally(function () {
        document.documentElement.classList.remove("builder-saving");
      });
    });
  }

  // swapIn puts the workspace and the notice of the page html in place of
  // the shown ones, and keeps a text being typed in as typed.
  function swapIn(html, after) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.getElementById("workspace");
    var old = document.getElementById("workspace");
    if (!next || !old) return;
    var el = document.activeElement;
    var typing = el && el.matches && el.matches(TEXT) && el.textContent !== el.getAttribute("data-old") ?
      { key: focusKey(el), text: el.textContent } : null;
    var openNames = [].map.call(old.querySelectorAll("[data-builder-fields] > li > details[open]"), function (d) { return d.getAttribute("data-field"); });
    next = document.adoptNode(next);
    // The scripts change what they take in (the preview made editable,
    // help shown, cards made draggable): parts are compared as the server
    // sent them last, which the first swap keeps.
    var sent = next.cloneNode(true);
    // Every form of the page posts the draft's revision it was shown at:
    // the parts kept are brought to the new one, which then sets no part
    // apart from the others.
    var revision = next.querySelector("[data-base]");
    if (served && revision) {
      [served, old].forEach(function (root) {
        [].forEach.call(root.querySelectorAll('input[name="base"]'), function (input) {
          input.setAttribute("value", revision.getAttribute("data-base"));
          input.value = revision.getAttribute("data-base");
        });
      });
    }
    var fresh = served && served.id === old.id ? merge(old, served, next) : replace(old, next);
    served = sent;
    var notice = doc.getElementById("notice");
    var shown = document.getElementById("notice");
    if (notice && shown) shown.innerHTML = notice.innerHTML;
    openNames.forEach(function (name) {
      var li = listItem(name);
      if (li) li.querySelector("details").open = true;
    });
    restore = after || null;
    prepare();
    if (typing) keepTyping(typing);
    // htmx and the other scripts take in the new parts once they show.
    setTimeout(function () {
      if (!window.htmx) return;
      fresh.forEach(function (part) {
        if (!part.isConnected) return;
        htmx.process(part);
        htmx.trigger(part, "htmx:load");
      });
    }, 0);
  }

  // Containers whose parts merge compares one by one: the workspace and
  // what leads down to the list of fields, whose cards a change of one
  // field mostly leaves as they were.
  var CONTAINERS = "#workspace, .builder-split, .builder-main, #builder, [data-builder-fields]";

  // served is the workspace as the server sent it last, before the
  // scripts took it in.
  var served = null;

  function replace(old, next) {
    old.replaceWith(next);
    return [next];
  }

  // merge makes shown, which showed was as the server sent it, show next,
  // replacing only the parts that differ, so that an edit of one field
  // redraws that field's card and the preview rather than every panel of
  // the form; it returns the parts put in. A container whose parts do not
  // line up is replaced whole.
  function merge(shown, was, next) {
    if (!shown.matches(CONTAINERS) || shown.tagName !== next.tagName || was.tagName !== next.tagName ||
        shown.children.length !== next.children.length || was.children.length !== next.children.length) {
      return replace(shown, next);
    }
    [].slice.call(was.attributes).forEach(function (a) {
      if (!next.hasAttribute(a.name)) shown.removeAttribute(a.name);
    });
    [].slice.call(next.attributes).forEach(function (a) {
      if (was.getAttribute(a.name) !== a.value) shown.setAttribute(a.name, a.value);
    });
    var fresh = [];
    var shownParts = [].slice.call(shown.children), wasParts = [].slice.call(was.children), nextParts = [].slice.call(next.children);
    shownParts.forEach(function (part, i) {
      if (!wasParts[i].isEqualNode(nextParts[i])) fresh = fresh.concat(merge(part, wasParts[i], nextParts[i]));
    });
    return fresh;
  }

  function keepTyping(t) {
    refocus(t.key);
    var el = document.activeElement;
    if (el && el.matches(TEXT)) {
      el.textContent = t.text;
      window.getSelection().selectAllChildren(el);
      window.getSelection().collapseToEnd();
    }
  }

  // editable turns the text nodes of el (not its children elements) into
  // one text edited in place; part says which text it is for the action.
  function editable(el, label, data) {
    var nodes = [].filter.call(el.childNodes, function (n) { return n.nodeType === 3; });
    var text = nodes.map(function (n) { return n.textContent; }).join("").trim();
    var span = document.createElement("span");
    span.className = "builder-text";
    span.textContent = text;
    setEditable(span, label, text, data);
    if (nodes.length) el.insertBefore(span, nodes[0]);
    else el.appendChild(span);
    nodes.forEach(function (n) { n.remove(); });
    return span;
  }

  function setEditable(span, label, text, data) {
    try {
      span.contentEditable = "plaintext-only";
    } catch (e) {
      span.contentEditable = "true";
    }
    span.setAttribute("role", "textbox");
    span.setAttribute("aria-label", label);
    span.setAttribute("tabindex", "0");
    span.setAttribute("data-old", text);
    Object.keys(data).forEach(function (k) { span.setAttribute("data-" + k, data[k]); });
  }

  // ghost is an empty text to fill in, such as a field's help, shown
  // when its field is chosen.
  function ghost(tag, cls, placeholder, label, data) {
    var el = document.createElement(tag);
    el.className = "builder-text builder-ghost " + cls;
    el.setAttribute("data-placeholder", placeholder);
    setEditable(el, label, "", data);
    return el;
  }

  function plus(at, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "builder-plus";
    b.setAttribute("data-at", String(at));
    b.setAttribute("aria-label", label);
    b.textContent = "+";
    return b;
  }

  // cardName returns the name of the field an element of the preview's
  // form shows, "" for none (a hidden input, a honeypot).
  function cardName(el) {
    if (el.hasAttribute("data-hubform-slot")) return el.getAttribute("data-hubform-slot");
    if (el.matches(CONTENT)) return contentName(el.id);
    if (!el.matches(".hubform-field") || el.matches(".hubform-hp")) return "";
    var control = el.querySelector("[name]");
    // A field made of parts names its controls "name.part": no field's
    // name holds a dot.
    return control ? control.getAttribute("name").split(".")[0] : "";
  }

  // Content between the questions: no control names it, its id does.
  var CONTENT = ".hubform-field--heading, .hubform-field--paragraph, .hubform-field--image, .hubform-field--divider";

  // contentName returns the name of the content whose element has the
  // id, which ends with "-" and its name: the longest such name.
  function contentName(id) {
    var found = "";
    document.querySelectorAll("[data-builder-fields] > li[data-content]").forEach(function (li) {
      var name = li.getAttribute("data-field");
      if (id.slice(-name.length - 1) === "-" + name && name.length > found.length) found = name;
    });
    return found;
  }

  // decorateContent makes a heading's text editable where it is, and a
  // paragraph's as it is written (Markdown), in place of its rendering
  // while it is edited.
  function decorateContent(field, li, i, title) {
    if (field.matches(".hubform-field--heading")) {
      editable(field, "Text of " + title, { index: i, part: "text" });
    } else if (field.matches(".hubform-field--paragraph")) {
      var text = li.getAttribute("data-text") || "";
      var src = document.createElement("div");
      src.className = "builder-text builder-paragraph-source";
      src.textContent = text;
      setEditable(src, "Text of the paragraph, in Markdown: *emphasis*, [a link](https://…), lines starting with - for a list", text, { index: i, part: "text", multiline: "1" });
      field.appendChild(src);
    }
  }

  // decorate makes a field of the preview a card of the editor.
  function decorate(card, li) {
    var i = Number(li.getAttribute("data-index"));
    var name = li.getAttribute("data-field");
    var field = card.matches(".hubform-field") ? card : card.querySelector(".hubform-field");
    var title = li.querySelector(".builder-field-label").textContent;
    card.classList.add("builder-card");
    card.setAttribute("data-builder-index", String(i));
    card.setAttribute("data-builder-name", name);
    card.setAttribute("tabindex", "0");
    card.setAttribute("role", "group");
    card.setAttribute("aria-label", title + ", " + li.getAttribute("data-kind") + ". Alt+Up or Alt+Down moves it, / adds a field after it.");
    if (i === selected) card.classList.add("builder-card--selected");
    if (!field) return;
    if (li.hasAttribute("data-content")) {
      decorateContent(field, li, i, title);
      card.prepend(tools(li, i, title, false));
      return;
    }
    // The visitor's controls are drawings here: the texts are edited.
    field.querySelectorAll("input, select, textarea, button").forEach(function (c) { c.inert = true; });
    var head = field.querySelector(":scope > label, :scope > legend, :scope > label.hubform-choice");
    if (head) editable(head, "Label of " + title, { index: i, part: "label" });
    var help = field.querySelector(":scope > .hubform-help");
    if (help) editable(help, "Help text of " + title, { index: i, part: "help" });
    else field.appendChild(ghost("p", "hubform-help", "Help text (optional)", "Help text of " + title, { index: i, part: "help" }));
    if (field.matches("fieldset") && li.hasAttribute("data-options")) {
      var options = field.querySelectorAll(":scope > label.hubform-choice");
      options.forEach(function (o, k) {
        editable(o, "Option " + (k + 1) + " of " + title, { index: i, part: "option", option: k });
      });
      var add = ghost("span", "builder-option-new", "Add an option", "New option of " + title, { index: i, part: "option", option: options.length });
      var row = document.createElement("div");
      row.className = "builder-option-add";
      row.appendChild(add);
      (help || field.querySelector(":scope > .builder-ghost")).before(row);
    }
    card.prepend(tools(li, i, title, true));
  }

  // tools are a card's handle, its Required button (when it takes a
  // value) and "New page after".
  function tools(li, i, title, value) {
    var tools = document.createElement("div");
    tools.className = "builder-tools";
    var handle = document.createElement("span");
    handle.className = "builder-handle";
    handle.setAttribute("draggable", "true");
    handle.setAttribute("aria-hidden", "true");
    handle.title = "Drag to move";
    tools.appendChild(handle);
    if (value) {
      var req = document.createElement("button");
      req.type = "button";
      req.className = "builder-tool builder-required";
      req.setAttribute("data-index", String(i));
      req.setAttribute("aria-pressed", li.hasAttribute("data-required") ? "true" : "false");
      req.textContent = "Required";
      tools.appendChild(req);
    }
    if (li.querySelector("form.builder-break")) {
      var br = document.createElement("button");
      br.type = "button";
      br.className = "builder-tool builder-newpage";
      br.setAttribute("data-index", String(i));
      br.textContent = "New page after";
      br.setAttribute("aria-label", "New page after " + title);
      tools.appendChild(br);
    }
    return tools;
  }

  // prepare turns the preview into the editor, once per swap.
  function prepare() {
    var b = builder();
    var preview = document.getElementById("preview");
    if (!b || !preview || preview.hasAttribute("data-builder-ready")) return;
    preview.setAttribute("data-builder-ready", "");
    // On the root, which no swap replaces.
    document.documentElement.classList.add("builder-inplace");
    document.querySelectorAll("#workspace .builder-nojs-help").forEach(function (el) { el.hidden = true; });
    document.querySelectorAll("#workspace .builder-js-help").forEach(function (el) { el.hidden = false; });
    var form = preview.querySelector("[data-hubform-form]");
    // The form's own buttons would send the preview: here they are drawings.
    if (form) form.querySelectorAll("[data-hubform-submit], .hubform-nav button, .hubform-save").forEach(function (el) { el.inert = true; });
    var steps = form ? form.querySelectorAll("fieldset.hubform-step") : [];
    var count = 0;
    steps.forEach(function (step, k) {
      var head = document.createElement("div");
      head.className = "builder-stephead";
      if (steps.length > 1) {
        var legend = step.querySelector(":scope > legend");
        var title = legend && !legend.classList.contains("hubform-visually-hidden") ? legend.textContent.trim() : "";
        var page = document.createElement("span");
        page.className = "builder-page";
        page.textContent = "Page " + (k + 1);
        head.appendChild(page);
        var t = ghost("span", "builder-steptitle", "Add a page title", "Title of page " + (k + 1), { step: k, part: "title" });
        t.textContent = title;
        t.setAttribute("data-old", title);
        head.appendChild(t);
        var pageLi = document.querySelector('.builder-breaks li[data-step="' + step.getAttribute("data-hubform-step") + '"]');
        var words = pageLi ? pageLi.getAttribute("data-condition-words") : "";
        if (words) {
          var badge = document.createElement("span");
          badge.className = "builder-badge";
          badge.title = words;
          badge.textContent = "Conditional";
          var said = document.createElement("span");
          said.className = "hubform-visually-hidden";
          said.textContent = ": " + words;
          badge.appendChild(said);
          head.appendChild(badge);
        }
        if (pageLi && pageLi.querySelector(".builder-step-condition")) {
          var cond = document.createElement("button");
          cond.type = "button";
          cond.className = "builder-tool builder-step-if";
          cond.setAttribute("data-step", String(k));
          cond.textContent = words ? "Condition" : "Show when…";
          cond.setAttribute("aria-label", cond.textContent + " (page " + (k + 1) + ")");
          head.appendChild(cond);
        }
        if (k > 0) {
          var join = document.createElement("button");
          join.type = "button";
          join.className = "builder-tool builder-join-step";
          join.setAttribute("data-step", String(k));
          join.textContent = "Remove page break";
          join.setAttribute("aria-label", "Remove page break before page " + (k + 1));
          head.appendChild(join);
        }
      }
      var legendEl = step.querySelector(":scope > legend");
      if (legendEl) legendEl.after(head);
      else step.prepend(head);
      if (k === 0) head.after(plus(0, "Add a field first"));
      [].slice.call(step.children).forEach(function (el) {
        var name = cardName(el);
        var li = name && listItem(name);
        if (!li) return;
        if (el.matches(CONTENT)) {
          // A card holds its tools, which an image or a line cannot; and
          // htmx gives an element with an id its class back after a swap.
          var wrap = document.createElement("div");
          wrap.className = "builder-content-card";
          el.before(wrap);
          wrap.appendChild(el);
          el = wrap;
        }
        decorate(el, li);
        count++;
        el.after(plus(Number(li.getAttribute("data-index")) + 1, "Add a field after " + li.querySelector(".builder-field-label").textContent));
      });
    });
    // The last line of the form adds a field at the end: "/" opens the
    // palette, a question and Enter adds a short answer.
    var slash = document.createElement("div");
    slash.className = "builder-slash";
    var input = document.createElement("input");
    input.type = "text";
    input.id = "builder-slash";
    input.setAttribute("aria-label", "Add a field: type / for the field types, or a question and Enter");
    input.placeholder = count ? "Type / to add a field" : "Type / to add the first field";
    input.autocomplete = "off";
    slash.appendChild(input);
    if (!count) slash.prepend(plus(0, "Add a field"));
    var at = form && form.querySelector("[data-hubform-submit]");
    if (at) at.before(slash);
    else preview.appendChild(slash);
    if (restore) {
      var r = restore;
      restore = null;
      r();
    }
  }

  // focusCard focuses the card of the field at index i, or called name.
  function focusCard(by) {
    var el = by.name !== undefined ?
      [].find.call(document.querySelectorAll(CARD), function (c) { return c.getAttribute("data-builder-name") === by.name; }) :
      document.querySelector(CARD + '[data-builder-index="' + by.index + '"]');
    if (el) {
      select(el);
      el.focus();
    }
    return el;
  }

  // focusText focuses a text of the card at index i, all of it chosen,
  // so that typing replaces it.
  function focusText(i, part) {
    var el = document.querySelector(TEXT + '[data-index="' + i + '"][data-part="' + part + '"]');
    if (!el) return;
    el.focus();
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // select makes card the chosen field: marked, its panel open.
  function select(card) {
    document.querySelectorAll(".builder-card--selected").forEach(function (c) { c.classList.remove("builder-card--selected"); });
    card.classList.add("builder-card--selected");
    selected = Number(card.getAttribute("data-builder-index"));
    var li = listItem(card.getAttribute("data-builder-name"));
    if (!li) return;
    document.querySelectorAll("[data-builder-fields] > li > details[open]").forEach(function (d) {
      if (d.parentNode !== li) d.open = false;
    });
    li.querySelector("details").open = true;
    document.querySelectorAll(".builder-field--current").forEach(function (el) { el.classList.remove("builder-field--current"); });
    li.classList.add("builder-field--current");
    var main = li.closest(".builder-main");
    if (main && main.scrollHeight > main.clientHeight) main.scrollTop = li.offsetTop - main.offsetTop - 8;
  }

  // commit saves the text el shows, when it changed.
  function commit(el, after) {
    // A paragraph keeps its lines; other texts are one line.
    var value = el.hasAttribute("data-multiline") ? el.textContent.replace(/\r/g, "").trim() : el.textContent.replace(/\s+/g, " ").trim();
    var old = el.getAttribute("data-old");
    if (value === old) return false;
    var part = el.getAttribute("data-part");
    if ((part === "label" || part === "text") && value === "") {
      el.textContent = old;
      return false;
    }
    el.setAttribute("data-old", value);
    if (part === "title") {
      send("/steps/" + el.getAttribute("data-step") + "/title", { title: value }, after);
      return true;
    }
    var values = { part: part, value: value };
    if (part === "option") values.option = el.getAttribute("data-option");
    send("/fields/" + el.getAttribute("data-index") + "/text", values, after);
    return true;
  }

  function cardIndexOf(el) {
    var card = el.closest(CARD);
    return card ? Number(card.getAttribute("data-builder-index")) : -1;
  }

  // Editing a text: Enter saves, Escape puts it back, leaving it saves.
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches(TEXT)) return;
    // Enter starts a new line of a paragraph; Ctrl+Enter saves it.
    if (event.key === "Enter" && el.hasAttribute("data-multiline") && !event.ctrlKey && !event.metaKey) return;
    if (event.key === "Enter") {
      event.preventDefault();
      var i = cardIndexOf(el);
      var step = el.getAttribute("data-step");
      var back = i >= 0 ? function () { focusCard({ index: i }); } :
        function () { var t = document.querySelector(TEXT + '[data-step="' + step + '"]'); if (t) t.focus(); };
      if (!commit(el, back)) back();
      else el.blur();
    } else if (event.key === "Escape") {
      event.preventDefault();
      el.textContent = el.getAttribute("data-old");
      var card = el.closest(CARD);
      if (card) card.focus();
      else el.blur();
    }
  }, true);

  document.addEventListener("focusout", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches(TEXT) || !el.isConnected) return;
    // The focus went elsewhere: put it back there after the swap.
    var key = focusKey(event.relatedTarget);
    commit(el, function () { refocus(key); });
  });

  // focusKey names an element of the editor, to find it again after a
  // swap; refocus focuses what it names.
  function focusKey(el) {
    if (!el || !el.closest) return null;
    if (el.matches(TEXT)) return { text: el.getAttribute("data-index"), part: el.getAttribute("data-part"), option: el.getAttribute("data-option"), step: el.getAttribute("data-step") };
    var card = el.closest(CARD);
    if (card) return { index: card.getAttribute("data-builder-index") };
    return el.id ? { id: el.id } : null;
  }

  function refocus(key) {
    if (!key) return;
    var el = null;
    if (key.id) el = document.getElementById(key.id);
    else if (key.text !== undefined && key.text !== null) {
      var sel = TEXT + '[data-index="' + key.text + '"][data-part="' + key.part + '"]';
      if (key.option !== null) sel += '[data-option="' + key.option + '"]';
      el = document.querySelector(sel);
    } else if (key.step !== undefined && key.step !== null) {
      el = document.querySelector(TEXT + '[data-step="' + key.step + '"]');
    } else if (key.index !== undefined) el = document.querySelector(CARD + '[data-builder-index="' + key.index + '"]');
    if (el) el.focus();
  }

  // A click on a text edits it, not the control its label names.
  document.addEventListener("click", function (event) {
    var t = event.target;
    if (!t.closest) return;
    var text = t.closest(".builder-inplace " + TEXT);
    if (text) {
      event.preventDefault();
      var card = t.closest(CARD);
      if (card) select(card);
      // A label's click would focus its card: the caret goes where the
      // click was.
      if (document.activeElement !== text) {
        text.focus();
        var at = document.caretRangeFromPoint && document.caretRangeFromPoint(event.clientX, event.clientY);
        if (at && text.contains(at.startContainer)) {
          window.getSelection().removeAllRanges();
          window.getSelection().addRange(at);
        }
      }
      return;
    }
    var card2 = t.closest(CARD);
    if (card2 && !t.closest("button")) {
      event.preventDefault();
      select(card2);
      card2.focus({ preventScroll: true });
    }
    var p = t.closest(".builder-plus");
    if (p) openPalette(p, Number(p.getAttribute("data-at")), null);
    var rq = t.closest(".builder-required");
    if (rq) {
      var n = rq.getAttribute("data-index");
      send("/fields/" + n + "/text", { part: "required", value: rq.getAttribute("aria-pressed") === "true" ? "" : "on" }, function () { focusCard({ index: n }); });
    }
    var br = t.closest(".builder-newpage");
    if (br) {
      var i = br.getAttribute("data-index");
      send("/fields/" + i + "/break", {}, function () { refocus({ step: String(Number(stepOfCard(i)) + 1) }); });
    }
    var stepIf = t.closest(".builder-step-if");
    if (stepIf) {
      // The page's condition is edited in the panel, its rows as a field's.
      var d = document.getElementById("step-condition-" + stepIf.getAttribute("data-step"));
      if (d) {
        d.open = true;
        d.scrollIntoView({ block: "nearest" });
        var first = d.querySelector("select, input:not([type=hidden]), button:not([tabindex='-1'])");
        if (first) first.focus();
      }
    }
    var join = t.closest(".builder-join-step");
    if (join) send("/steps/" + join.getAttribute("data-step") + "/join", {}, function () { focusCard({ index: Math.max(selected, 0) }); });
  });

  function stepOfCard(i) {
    var card = document.querySelector(CARD + '[data-builder-index="' + i + '"]');
    var step = card && card.closest("fieldset.hubform-step");
    return step ? [].indexOf.call(step.parentNode.querySelectorAll("fieldset.hubform-step"), step) : 0;
  }

  document.addEventListener("focusin", function (event) {
    var card = event.target.closest && event.target.closest(CARD);
    if (card && !card.classList.contains("builder-card--selected")) select(card);
  });

  // A chosen card: Alt+ArrowUp/Down moves it, "/" adds a field after it,
  // Enter edits its label.
  document.addEventListener("keydown", function (event) {
    var card = event.target;
    if (!card.matches || !card.matches(CARD)) return;
    var i = Number(card.getAttribute("data-builder-index"));
    var name = card.getAttribute("data-builder-name");
    if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      send("/fields/" + i + "/move", { to: event.key === "ArrowUp" ? "up" : "down" }, function () { focusCard({ name: name }); });
    } else if (event.key === "/") {
      event.preventDefault();
      openPalette(card.nextElementSibling && card.nextElementSibling.matches(".builder-plus") ? card.nextElementSibling : card, i + 1, null);
    } else if (event.key === "Enter") {
      event.preventDefault();
      focusText(i, "label");
    }
  });

  // The palette of field types, below anchor: typing filters it, the
  // arrows choose, Enter or a click adds the field at position at. input
  // is the text the owner types in ("/" and a filter), else the
  // palette's own.
  var open = null;

  function openPalette(anchor, at, input) {
    closePalette(false);
    var tpl = document.getElementById("builder-palette");
    if (!tpl) return;
    var el = tpl.content.firstElementChild.cloneNode(true);
    var filter = el.querySelector(".builder-palette-filter");
    el.setAttribute("role", "dialog");
    el.setAttribute("aria-label", "Add a field");
    filter.setAttribute("role", "combobox");
    filter.setAttribute("aria-expanded", "true");
    filter.setAttribute("aria-controls", "builder-palette-list");
    filter.setAttribute("aria-autocomplete", "list");
    // A listbox of options in groups, each named by its heading.
    var list = el.querySelector(".builder-palette-list");
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Field types");
    el.querySelectorAll("[data-palette-group]").forEach(function (g) {
      var h = g.querySelector(".builder-palette-heading");
      g.setAttribute("role", "group");
      g.setAttribute("aria-labelledby", h.id);
      h.setAttribute("role", "presentation");
      g.querySelector("ul").setAttribute("role", "presentation");
    });
    el.querySelectorAll("li").forEach(function (li) {
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
    });
    if (input) {
      filter.remove();
      input.setAttribute("role", "combobox");
      input.setAttribute("aria-controls", "builder-palette-list");
      input.setAttribute("aria-expanded", "true");
    }
    open = { el: el, at: at, anchor: anchor, input: input || filter, own: !input };
    anchor.after(el);
    move(0);
    if (!input) filter.focus();
  }

  function closePalette(back) {
    if (!open) return;
    var o = open;
    open = null;
    o.el.remove();
    if (!o.own) {
      o.input.setAttribute("aria-expanded", "false");
      o.input.removeAttribute("aria-activedescendant");
    }
    if (back && o.own) o.anchor.focus();
  }

  function choices() {
    return [].filter.call(open.el.querySelectorAll("[role=option]"), function (li) { return !li.hidden; });
  }

  // move makes option k of those shown the active one.
  function move(k) {
    var shown = choices();
    open.el.querySelectorAll("[role=option]").forEach(function (li) { li.setAttribute("aria-selected", "false"); });
    if (!shown.length) {
      open.input.removeAttribute("aria-activedescendant");
      return;
    }
    k = (k + shown.length) % shown.length;
    shown[k].setAttribute("aria-selected", "true");
    shown[k].scrollIntoView({ block: "nearest" });
    open.input.setAttribute("aria-activedescendant", shown[k].id);
  }

  function activeIndex() {
    return choices().findIndex(function (li) { return li.getAttribute("aria-selected") === "true"; });
  }

  function filterPalette(text) {
    var words = text.toLowerCase().trim();
    open.el.querySelectorAll("[role=option]").forEach(function (li) {
      li.hidden = words !== "" && li.textContent.toLowerCase().indexOf(words) < 0;
    });
    open.el.querySelectorAll("[data-palette-group]").forEach(function (g) {
      g.hidden = !g.querySelector("[role=option]:not([hidden])");
    });
    // The type whose word starts with what was typed comes first, then
    // one whose word holds it, before one whose description does.
    var shown = choices();
    var word = function (li) { return li.querySelector(".builder-kind-word").textContent.toLowerCase(); };
    var k = shown.findIndex(function (li) { return word(li).indexOf(words) === 0; });
    if (k < 0) k = shown.findIndex(function (li) { return word(li).indexOf(words) >= 0; });
    move(Math.max(k, 0));
  }

  function pick(li) {
    var at = open.at;
    var input = open.input;
    closePalette(false);
    if (input.id === "builder-slash") input.value = "";
    send("/fields", { type: li.getAttribute("data-type"), at: String(at) }, function () { focusText(at, "label"); });
  }

  document.addEventListener("input", function (event) {
    var el = event.target;
    if (el.id === "builder-slash") {
      if (el.value.charAt(0) === "/") {
        if (!open || open.input !== el) openPalette(el.parentNode, addAt(), el);
        filterPalette(el.value.slice(1));
      } else if (open && open.input === el) closePalette(false);
    } else if (open && el === open.input) filterPalette(el.value.replace(/^\//, ""));
  });

  // addAt is where "/" at the end of the form adds a field: at the end.
  function addAt() {
    return document.querySelectorAll("[data-builder-fields] > li").length;
  }

  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (open && el === open.input) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        move(activeIndex() + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Enter") {
        event.preventDefault();
        var li = choices()[activeIndex()];
        if (li) pick(li);
      } else if (event.key === "Escape") {
        event.preventDefault();
        closePalette(true);
      }
      return;
    }
    // A question typed at the end and Enter: a short answer asking it.
    if (el.id === "builder-slash" && event.key === "Enter") {
      event.preventDefault();
      if (el.value.trim() === "") return;
      var at = addAt();
      send("/fields", { type: "text", label: el.value.trim(), at: String(at) }, function () { focusCard({ index: at }); });
      el.value = "";
    }
  });

  document.addEventListener("mousedown", function (event) {
    if (!open) return;
    var li = event.target.closest && event.target.closest(".builder-palette [role=option]");
    if (li) {
      event.preventDefault();
      pick(li);
    } else if (!event.target.closest(".builder-palette") && event.target !== open.input) closePalette(false);
  });

  // Dragging a card by its handle onto another card.
  function clearMarks() {
    document.querySelectorAll(".builder-card--before, .builder-card--after").forEach(function (el) {
      el.classList.remove("builder-card--before", "builder-card--after");
    });
  }

  function dropAt(event) {
    var card = event.target.closest && event.target.closest(CARD);
    if (!card || !dragged || card === dragged) return null;
    var box = card.getBoundingClientRect();
    return { card: card, after: event.clientY >= box.top + box.height / 2 };
  }

  document.addEventListener("dragstart", function (event) {
    var handle = event.target.closest && event.target.closest(".builder-handle");
    if (!handle) return;
    dragged = handle.closest(CARD);
    dragged.classList.add("builder-card--dragging");
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", dragged.getAttribute("data-builder-name"));
      event.dataTransfer.setDragImage(dragged, 16, 16);
    }
  });

  document.addEventListener("dragover", function (event) {
    if (!dragged) return;
    clearMarks();
    var t = dropAt(event);
    if (!t) return;
    event.preventDefault();
    t.card.classList.add(t.after ? "builder-card--after" : "builder-card--before");
  });

  document.addEventListener("drop", function (event) {
    if (!dragged) return;
    var t = dropAt(event);
    var card = dragged;
    clearMarks();
    card.classList.remove("builder-card--dragging");
    dragged = null;
    if (!t) return;
    event.preventDefault();
    var from = Number(card.getAttribute("data-builder-index"));
    var to = Number(t.card.getAttribute("data-builder-index")) + (t.after ? 1 : 0);
    if (to > from) to--;
    var li = listItem(t.card.getAttribute("data-builder-name"));
    var step = li ? li.getAttribute("data-step") : "";
    var name = card.getAttribute("data-builder-name");
    send("/fields/" + from + "/move", { to: String(to), step: step }, function () { focusCard({ name: name }); });
  });

  document.addEventListener("dragend", function () {
    clearMarks();
    if (dragged) dragged.classList.remove("builder-card--dragging");
    dragged = null;
  });

  // A text being typed in when htmx swaps the page (a post of the list)
  // keeps what was typed.
  var typing = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = document.activeElement;
    typing = null;
    if (event.detail.target && event.detail.target.id === "workspace" && el && el.matches && el.matches(TEXT) && el.textContent !== el.getAttribute("data-old")) {
      typing = { key: focusKey(el), text: el.textContent };
    }
  });

  function afterSwap() {
    prepare();
    if (!typing) return;
    var t = typing;
    typing = null;
    keepTyping(t);
  }

  // The preview's form is a drawing here: Enter in the line that adds a
  // field would submit it, and its answer replace the form being edited.
  document.addEventListener("submit", function (event) {
    if (!document.documentElement.classList.contains("builder-inplace")) return;
    if (event.target.closest && event.target.closest("#preview")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // A button of a group's questions posts the whole panel: once the page
  // is back, the focus goes to the label of the question it moved, added
  // or left in place of the one removed, not to the page's top.
  var question = null;
  document.addEventListener("submit", function (event) {
    var b = event.submitter;
    question = null;
    if (!b || b.name !== "questionAction") return;
    var details = b.closest("details[id^='field-']");
    if (!details) return;
    var parts = b.value.split(":");
    var k = Number(parts[1]);
    var count = details.querySelectorAll(".builder-question").length;
    var to = { add: count, up: k - 1, down: k + 1, remove: Math.min(k, count - 2) }[parts[0]];
    question = { field: details.id.slice("field-".length), k: to };
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!question) return;
    var q = question;
    question = null;
    var el = document.getElementById("f" + q.field + "-q" + q.k + "-label");
    if (el) el.focus();
  });

  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("htmx:load", afterSwap);
})();
