// embed.js puts a hub's forms on any site. Load it from the hub, async:
//
//   <script async src="https://hub.example/embed.js"></script>
//
// <div data-hubform="SITE/SLUG"> (holding a link to the form's page, for
// browsers without JavaScript) becomes a frame of the form's page that
// grows and shrinks with the form. <button data-hubform-open="SITE/SLUG">,
// or a link to the form's page that carries it,
// opens the form in a modal dialog, or in a panel sliding in from the side
// with data-hubform-layout="slide"; on a click, and also after
// data-hubform-after seconds, at data-hubform-scroll percent of the page, or
// when the mouse leaves the top of the window (data-hubform-exit), at most
// once per visitor with data-hubform-once. data-hubform-prefill passes the
// page's query, or the parameters it names ("utm_source,ref"), to the
// form's prefill. The element receives hubform:ready, hubform:submitted
// (detail.id) and hubform:close. Messages are taken from the hub's origin
// alone, and from this script's frames alone. Styles are set on the
// elements themselves, which a Content-Security-Policy without
// 'unsafe-inline' allows.
(() => {
  'use strict';

  const me = document.currentScript;
  if (!me || window.hubformEmbed) return;
  window.hubformEmbed = true;
  const hub = new URL(me.src).origin;
  // The frames this script made, by their window: the messages it takes.
  const frames = new Map();

  const style = (el, props) => Object.assign(el.style, props);
  const fire = (el, type, detail) => el.dispatchEvent(new CustomEvent(type, { bubbles: true, detail }));

  // frameOf returns a frame of the form ref names ("site/slug") for el.
  function frameOf(el, ref) {
    const [site, slug] = ref.split('/');
    const url = new URL(hub + '/f/' + encodeURIComponent(site) + '/' + encodeURIComponent(slug));
    const only = el.getAttribute('data-hubform-prefill');
    if (only !== null) {
      const names = only.split(',').map((s) => s.trim()).filter(Boolean);
      for (const [name, value] of new URLSearchParams(location.search)) {
        if (!names.length || names.includes(name)) url.searchParams.append(name, value);
      }
    }
    url.searchParams.set('embed', '1');
    url.searchParams.set('origin', location.origin);
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = el.getAttribute('data-hubform-title') || el.textContent.trim() || 'Form';
    style(frame, { display: 'block', width: '100%', height: '20rem', border: '0', overflow: 'hidden' });
    return frame;
  }

  // watch registers frame, once in the document, as el's.
  const watch = (frame, el) => frames.set(frame.contentWindow, { frame, el });

  window.addEventListener('message', (event) => {
    if (event.origin !== hub) return;
    const known = frames.get(event.source);
    const data = event.data;
    if (!known || !data || typeof data.type !== 'string') return;
    if (data.type === 'hubform:height' && Number.isFinite(data.height) && data.height >= 0) {
      known.frame.style.height = Math.ceil(data.height) + 'px';
    } else if (data.type === 'hubform:ready') {
      fire(known.el, 'hubform:ready');
    } else if (data.type === 'hubform:submitted') {
      fire(known.el, 'hubform:submitted', { id: String(data.id || '') });
    } else if (data.type === 'hubform:escape' && known.el.hubformDialog) {
      known.el.hubformDialog.close();
    }
  });

  function inline(el) {
    const frame = frameOf(el, el.getAttribute('data-hubform'));
    el.replaceChildren(frame);
    watch(frame, el);
  }

  // open shows the form of button in a modal dialog, or a slide-in panel;
  // closing it, by its button or Esc, gives the focus back to button.
  function open(button) {
    if (button.hubformDialog) return;
    const slide = button.getAttribute('data-hubform-layout') === 'slide';
    const frame = frameOf(button, button.getAttribute('data-hubform-open'));
    const dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', frame.title);
    style(dialog, {
      boxSizing: 'border-box', padding: '2.75rem 1rem 1rem', border: '0', background: 'Canvas', color: 'CanvasText',
      width: 'min(40rem, 100vw - 1rem)', maxWidth: '100vw', maxHeight: 'calc(100vh - 1rem)', overflow: 'auto',
      borderRadius: '0.75rem', boxShadow: '0 1rem 3rem rgb(0 0 0 / 0.3)',
    });
    if (slide) {
      style(dialog, { margin: '0 0 0 auto', height: '100vh', maxHeight: '100vh', borderRadius: '0' });
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '\u00d7';
    close.setAttribute('aria-label', 'Close');
    style(close, {
      position: 'absolute', top: '0.375rem', right: '0.375rem', width: '2rem', height: '2rem', padding: '0',
      border: '0', borderRadius: '50%', background: 'transparent', color: 'inherit', font: '1.5rem/1 system-ui, sans-serif', cursor: 'pointer',
    });
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      frames.delete(frame.contentWindow);
      dialog.remove();
      button.hubformDialog = null;
      button.focus({ preventScroll: true });
      fire(button, 'hubform:close');
    });
    close.autofocus = true;
    // Tab past the frame's last control, or Shift+Tab before the close
    // button, would leave the dialog for the browser's own controls: an
    // edge on each side sends the focus round.
    const edge = (to) => {
      const el = document.createElement('span');
      el.tabIndex = 0;
      el.addEventListener('focus', () => to.focus());
      return el;
    };
    dialog.append(edge(frame), close, frame, edge(close));
    document.body.append(dialog);
    watch(frame, button);
    button.hubformDialog = dialog;
    dialog.showModal();
  }

  // popup opens button's form on a click, and on the triggers it names
  // once: after some seconds, at a scroll depth, on leaving intent; with
  // data-hubform-once, those open it once per visitor, whom this page's
  // storage remembers.
  function popup(button) {
    button.addEventListener('click', (event) => {
      // A link to the form's page opens the popup instead.
      event.preventDefault();
      open(button);
    });
    const key = 'hubform-shown:' + button.getAttribute('data-hubform-open');
    const once = button.hasAttribute('data-hubform-once');
    let done = false;
    const auto = () => {
      if (done) return;
      done = true;
      try {
        if (once && localStorage.getItem(key)) return;
        if (once) localStorage.setItem(key, '1');
      } catch {
        // No storage: the once is this page's only.
      }
      open(button);
    };
    const after = button.getAttribute('data-hubform-after');
    if (after !== null) setTimeout(auto, Number(after) * 1000);
    const depth = button.getAttribute('data-hubform-scroll');
    if (depth !== null) {
      const onScroll = () => {
        const root = document.documentElement;
        const seen = ((window.scrollY + window.innerHeight) / root.scrollHeight) * 100;
        if (seen >= Number(depth)) {
          window.removeEventListener('scroll', onScroll);
          auto();
        }
      };
      window.addEventListener('scroll', onScroll, { passive: true });
    }
    if (button.hasAttribute('data-hubform-exit')) {
      document.addEventListener('mouseout', (event) => {
        if (!event.relatedTarget && event.clientY <= 0) auto();
      });
    }
  }

  function scan() {
    for (const el of document.querySelectorAll('[data-hubform*="/"]:not([data-hubform-ready])')) {
      el.setAttribute('data-hubform-ready', '');
      inline(el);
    }
    for (const el of document.querySelectorAll('[data-hubform-open]:not([data-hubform-ready])')) {
      el.setAttribute('data-hubform-ready', '');
      popup(el);
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
})();
