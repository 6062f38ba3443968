// hubform-draft.js saves a hubform form that offers saving (data-hubform-save,
// the app's save route) as a draft each time the visitor moves to another
// step, and keeps the draft's token in the browser, under the save route,
// so that a tab closed by mistake opens the draft again; hubform.js loads
// it for such a form. Storage may be off or full, and a save may fail:
// the visitor can still save by hand, with the form's Send me a link.
(() => {
  'use strict';

  if (window.hubformDraft) return;

  const SAVE = 'data-hubform-save';
  const DRAFT = '_hubformDraft';

  const keyOf = (form) => 'hubform-draft:' + new URL(form.getAttribute(SAVE), location.href).pathname;

  function store(key, token) {
    try {
      if (token) localStorage.setItem(key, token);
      else localStorage.removeItem(key);
    } catch {
      // Not kept: the draft lives on at the hub.
    }
  }

  // The roots that showed a form offering saving, by id: a form swapped
  // into one after a post is no fresh start.
  const shown = new Set();
  // Forms with a save running, and whether another waits for it.
  const saving = new WeakMap();

  // autosave saves the form's values as a draft, one save at a time, so
  // that the next saves over the draft the first made; the values are read
  // when a save starts. Chosen files stay out (those uploaded already have
  // their tickets in the form), and so does the address: only the Send me
  // a link button has a link e-mailed.
  function autosave(form) {
    if (saving.has(form)) return void saving.set(form, true);
    saving.set(form, false);
    const body = new FormData();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && name !== '_hubformDraftEmail') body.append(name, value);
    }
    body.set('_hubformAutosave', '1');
    const headers = { Accept: 'application/json' };
    const csrf = form.querySelector('input[data-hubform-csrf]');
    if (csrf) headers['X-CSRF-Token'] = csrf.value;
    fetch(form.getAttribute(SAVE), { method: 'POST', body, headers, credentials: 'same-origin' })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error('save answered ' + res.status))))
      .then(({ token }) => {
        // A form swapped out meanwhile was sent, or saved by hand.
        if (!token || !form.isConnected) return;
        let input = form.querySelector('input[name="' + DRAFT + '"]');
        if (!input) {
          input = document.createElement('input');
          input.type = 'hidden';
          input.name = DRAFT;
          form.append(input);
        }
        input.value = token;
        store(keyOf(form), token);
      })
      .catch((err) => console.debug('hubform: autosave failed', err))
      .finally(() => {
        const again = saving.get(form);
        saving.delete(form);
        if (again && form.isConnected) autosave(form);
      });
  }

  // resume remembers the draft a form continues. A form without one, on a
  // page opened afresh, opens the draft the browser remembers instead: the
  // same page with the token, from which the app fills the form. A draft
  // the app no longer has is forgotten.
  function resume(form) {
    // A form sent or swapped out while the script loaded is done with.
    const root = form.isConnected && form.closest('[data-hubform]');
    if (!root) return;
    const key = keyOf(form);
    // A form swapped in after a post, or a page answering a post without
    // htmx, is no fresh start: the visitor's values are in it.
    const posted = shown.has(root.id) || [form.getAttribute('action'), form.getAttribute(SAVE)].some((u) => new URL(u, location.href).pathname === location.pathname);
    shown.add(root.id);
    const token = (form.querySelector('input[name="' + DRAFT + '"]') || {}).value;
    if (token || root.querySelector('[data-hubform-draft-gone]')) return store(key, token);
    let saved = null;
    try {
      saved = localStorage.getItem(key);
    } catch {
      return;
    }
    const url = new URL(location.href);
    if (!saved || posted || url.searchParams.has('draft')) return;
    url.searchParams.set('draft', saved);
    location.replace(url);
  }

  // sent forgets the draft of each form whose submitted state root shows:
  // its mark names the form's save route, with or without htmx.
  function sent(root) {
    const marks = root.querySelectorAll ? Array.from(root.querySelectorAll('[data-hubform-sent]')) : [];
    if (root instanceof Element && root.matches('[data-hubform-sent]')) marks.push(root);
    for (const mark of marks) {
      store('hubform-draft:' + new URL(mark.getAttribute('data-hubform-sent'), location.href).pathname, '');
    }
  }

  window.hubformDraft = { autosave, resume, sent };
})();
