// console.js: small improvements of the hub console's pages. Every action
// works without it; with it a few take a step less.
(function () {
  "use strict";

  // The browser's time zone goes with the sign-in, so that times are shown
  // in it.
  function fillTimeZone(root) {
    var zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return;
    }
    root.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
      if (!input.value) input.value = zone;
    });
    root.querySelectorAll("button[data-use-browser-time-zone]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var target = document.getElementById(button.getAttribute("data-use-browser-time-zone"));
        if (target) target.value = zone;
      });
    });
  }

  // A select marked data-submit-on-change submits its form when changed:
  // the button beside it is for browsers without this script.
  function submitOnChange(root) {
    root.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
      select.addEventListener("change", function () {
        if (select.form) select.form.requestSubmit();
      });
    });
  }

  // A form, or a submit button, marked data-confirm asks first; without
  // this script the server shows a page that asks. The answer travels as
  // confirmed=1.
  function confirmFirst(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (!form.hasAttribute("data-confirm") && !form.querySelector("[data-confirm]")) return;
      if (form.hasAttribute("data-confirm-bound")) return;
      form.setAttribute("data-confirm-bound", "");
      form.addEventListener("submit", function (event) {
        var by = event.submitter;
        var question = (by && by.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
        var answer = form.querySelector("input[name=confirmed]");
        if (answer) answer.remove();
        if (!question) return;
        if (!window.confirm(question)) {
          event.preventDefault();
          event.stopImmediatePropagation();
          return;
        }
        answer = document.createElement("input");
        answer.type = "hidden";
        answer.name = "confirmed";
        answer.value = "1";
        form.appendChild(answer);
      }, true);
    });
  }

  // A button marked data-copy copies the text of the element it names,
  // then reads "Copied" for a moment, and says so in the live region
  // beside it (id "<name>-status") for screen readers. Where the browser
  // lets no page write the clipboard (a hub over plain HTTP), it selects
  // the text instead and says how to copy it.
  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      if (button.dataset.copyReady) return;
      button.dataset.copyReady = "1";
      button.hidden = false;
      var name = button.getAttribute("data-copy");
      var label = button.textContent;
      var timer;
      function say(text) {
        var status = document.getElementById(name + "-status");
        if (status) status.textContent = text;
        clearTimeout(timer);
        timer = setTimeout(function () {
          button.textContent = label;
          button.classList.remove("is-copied");
          if (status) status.textContent = "";
        }, 2500);
      }
      function selectSource(source) {
        var range = document.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        say("Selected: press Ctrl+C, or ⌘C, to copy.");
      }
      button.addEventListener("click", function () {
        var source = document.getElementById(name);
        if (!source) return;
        if (!navigator.clipboard || !window.isSecureContext) {
          selectSource(source);
          return;
        }
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
          button.classList.add("is-copied");
          say("Copied to the clipboard.");
        }, function () { selectSource(source); });
      });
    });
  }

  // The Publish button says what the draft changes: after an edit posted
  // in the background by htmx, or a script's that dispatches the event
  // "hubform:saved" on the document, it is fetched again for the page it
  // is on, with the revision its post then carries.
  function afterPost(event) {
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb === "post" && event.detail.successful) refreshPublishBar();
  }

  function refreshPublishBar() {
    var bar = document.querySelector("#publish[data-publish-bar]");
    if (!bar) return;
    var from = window.location.pathname + window.location.search;
    var url = bar.getAttribute("data-publish-bar") + "?bar=1&from=" + encodeURIComponent(from);
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (html) {
      if (!html) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("#publish");
      var now = document.querySelector("#publish");
      if (fresh && now) now.replaceWith(document.adoptNode(fresh));
    }).catch(function () {});
  }

  // A link marked data-panel opens the submission it names in the side
  // panel of the page (dialog#submission-panel) rather than on a page of
  // its own; its previous and next links open in the same panel. Without
  // this script, or with a modifier key, the link opens the page.
  function openInPanel(event) {
    var panel = document.getElementById("submission-panel");
    if (!panel || typeof panel.showModal !== "function") return;
    var link = event.target.closest && event.target.closest("a[data-panel], a[data-panel-close]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.hasAttribute("data-panel-close")) {
      if (!panel.contains(link)) return;
      event.preventDefault();
      panel.close();
      return;
    }
    event.preventDefault();
    fetch(link.href, { credentials: "same-origin" }).then(function (res) {
      if (!res.ok) throw new Error(res.status);
      return res.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var article = doc.getElementById("submission");
      if (!article) throw new Error("no submission");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "hubform-button hubform-button--secondary console-panel-close";
      close.textContent = "Close";
      close.addEventListener("click", function () { panel.close(); });
      panel.replaceChildren(close, document.adoptNode(article));
      enhance(panel);
      if (!panel.open) panel.showModal();
      var title = panel.querySelector("h1");
      if (title) {
        title.tabIndex = -1;
        title.focus();
      }
    }).catch(function () {
      window.location.href = link.href;
    });
  }
  document.addEventListener("click", openInPanel);

  function enhance(root) {
    fillTimeZone(root);
    submitOnChange(root);
    confirmFirst(root);
    copyButtons(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:afterRequest", afterPost);
  document.addEventListener("hubform:saved", refreshPublishBar);
  document.addEventListener("htmx:load", function (event) {
    if (event.target !== document.body) enhance(event.target);
  });
})();
