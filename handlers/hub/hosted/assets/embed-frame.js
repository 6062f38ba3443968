// embed-frame.js runs in a form's page shown in a frame by embed.js
// (?embed=1). It tells the page around the frame what it needs and no
// more: the height of the form, so that the frame grows and shrinks with
// it and never scrolls; that the form is ready; and that it was sent,
// with the submission's id; and Esc pressed in it, to close a popup.
// Messages go to the host page's origin, which
// the hub checked and put on this script (data-origin); when the hub knows
// none, the height and ready go to any parent, and the submission to none.
// The page takes no message from its parent.
(() => {
  'use strict';

  const me = document.currentScript;
  if (!me || window.parent === window) return;
  const host = me.getAttribute('data-origin') || '';

  const post = (message, anyone) => {
    if (host) window.parent.postMessage(message, host);
    else if (anyone) window.parent.postMessage(message, '*');
  };

  // The page's own height: the root element's box, which its content
  // sizes, not the frame's viewport, so that it shrinks too.
  let last = -1;
  const measure = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: 'hubform:height', height }, true);
  };
  new ResizeObserver(measure).observe(document.documentElement);

  // The hub names the submission it stored in the answer to a post
  // (Hubform-Submission); the thank-you panel swapped in says it was sent.
  let id = '';
  document.addEventListener('htmx:beforeSwap', (event) => {
    const xhr = event.detail && event.detail.xhr;
    const got = xhr && xhr.getResponseHeader('Hubform-Submission');
    if (got) id = got;
  });
  const told = new WeakSet();
  const sent = () => {
    const panel = document.querySelector('[data-vendor-hubform-submitted]');
    if (!panel || told.has(panel)) return;
    told.add(panel);
    post({ type: 'hubform:submitted', id }, false);
  };
  new MutationObserver(sent).observe(document.body, { childList: true, subtree: true });

  // Esc closes a popup around the frame, which hears no key pressed in
  // it: the page tells it.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) post({ type: 'hubform:escape' }, false);
  });

  measure();
  post({ type: 'hubform:ready' }, true);
  sent();
})();
