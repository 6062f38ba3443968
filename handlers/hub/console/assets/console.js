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

  // A button marked data-copy copies the text of the element it names.
  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var source = document.getElementById(button.getAttribute("data-copy"));
        if (!source || !navigator.clipboard) return;
        navigator.clipboard.writeText(source.textContent).then(function () {
          var label = button.textContent;
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = label; }, 1500);
        });
      });
    });
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
  document.addEventListener("htmx:load", function (event) {
    if (event.target !== document.body) enhance(event.target);
  });
})();
