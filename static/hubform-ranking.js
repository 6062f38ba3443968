// hubform-ranking.js makes each ranking of a hubform form (an ol with
// data-hubform-ranking) a list to reorder: hubform.js loads it for a form
// that has one. Without it each option has a place to choose, which works
// as ever; with it the options are dragged by their handle, with a pointer
// or a finger, or moved with the keyboard, and the places each option's
// control posts ("value:place") follow the order shown, so that the hub
// gets what the form without the script would send.
(() => {
  'use strict';

  if (window.hubformRanking) return;

  const LIST = 'ol[data-hubform-ranking]';
  const ITEM = 'li.hubform-rank';
  const all = (root, selector) => Array.from(root.querySelectorAll(selector));
  const itemsOf = (list) => all(list, ':scope > ' + ITEM);
  const selectOf = (item) => item.querySelector('select');
  const labelOf = (item) => (item.querySelector('label') || {}).textContent || '';
  // placeOf is the place an item's control holds, 0 for none: its option
  // n is place n.
  const placeOf = (item) => selectOf(item).selectedIndex;

  // say puts the list's text key, its {label}, {n} and {total} filled in,
  // into the list's live region, which screen readers read out.
  function say(list, key, item) {
    const status = list.parentNode.querySelector('[data-hubform-rank-status]');
    const text = (list.getAttribute('data-hubform-rank-' + key) || '')
      .replaceAll('{label}', labelOf(item))
      .replaceAll('{n}', itemsOf(list).indexOf(item) + 1)
      .replaceAll('{total}', itemsOf(list).length);
    if (status) status.textContent = text;
  }

  // place gives each item's control the place the item is shown at, and
  // tells the form item's control changed (a condition may read it).
  function place(list, item) {
    itemsOf(list).forEach((it, i) => (selectOf(it).selectedIndex = i + 1));
    selectOf(item).dispatchEvent(new Event('change', { bubbles: true }));
  }

  // moveTo shows item at index of its list. The others move around it:
  // moving item itself would take its handle's focus and the pointer it
  // holds.
  function moveTo(list, item, index) {
    const others = itemsOf(list).filter((it) => it !== item);
    index = Math.min(Math.max(index, 0), others.length);
    if (itemsOf(list).indexOf(item) === index) return;
    for (const it of others.slice(0, index)) list.insertBefore(it, item);
    item.after(...others.slice(index));
  }

  // Lifted items, by list: the item the keyboard moves, and the order and
  // places before, for Escape to put back.
  const lifted = new WeakMap();

  function lift(list, item) {
    lifted.set(list, { item, order: itemsOf(list), places: itemsOf(list).map(placeOf) });
    item.classList.add('hubform-rank--lifted');
  }

  // drop ends a move, kept or, when cancel, undone; quiet says nothing of
  // it (a click on a handle that moved nothing).
  function drop(list, cancel, quiet) {
    const move = lifted.get(list);
    if (!move) return;
    lifted.delete(list);
    move.item.classList.remove('hubform-rank--lifted', 'hubform-rank--dragging');
    if (cancel) {
      list.append(...move.order);
      move.order.forEach((it, i) => (selectOf(it).selectedIndex = move.places[i]));
    } else if (itemsOf(list).some((it, i) => it !== move.order[i] || placeOf(it) !== i + 1)) {
      // A drop where it was lifted gives places too: the visitor chose the order shown.
      place(list, move.item);
    }
    if (!quiet) say(list, cancel ? 'cancelled' : 'dropped', move.item);
  }

  // step moves item to index.
  function step(list, item, index) {
    moveTo(list, item, index);
    place(list, item);
    say(list, 'moved', item);
  }

  function onKeydown(event) {
    const handle = event.target.closest('.hubform-rank-handle');
    if (!handle) return;
    const list = handle.closest(LIST);
    const item = handle.closest(ITEM);
    const move = lifted.get(list);
    const index = itemsOf(list).indexOf(item);
    const key = event.key;
    if (key === ' ' || key === 'Enter') {
      event.preventDefault();
      if (move) return drop(list, false);
      lift(list, item);
      return say(list, 'lifted', item);
    }
    if (key === 'Escape' && move) {
      event.preventDefault();
      drop(list, true);
      return handle.focus();
    }
    const to = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: Infinity }[key];
    // Alt with an arrow moves without lifting first.
    if (to === undefined || !(move || (event.altKey && key.startsWith('Arrow')))) return;
    event.preventDefault();
    step(list, item, to);
  }

  // Dragging: the item follows the pointer from place to place while the
  // handle holds the pointer; it is dropped where the pointer lets go.
  function onPointerDown(event) {
    const handle = event.target.closest('.hubform-rank-handle');
    if (!handle || event.button !== 0) return;
    event.preventDefault();
    const list = handle.closest(LIST);
    const item = handle.closest(ITEM);
    drop(list, false);
    handle.focus();
    handle.setPointerCapture(event.pointerId);
    lift(list, item);
    item.classList.add('hubform-rank--dragging');
    const onMove = (e) => {
      const others = itemsOf(list).filter((it) => it !== item);
      const at = others.findIndex((it) => {
        const r = it.getBoundingClientRect();
        return e.clientY < r.top + r.height / 2;
      });
      moveTo(list, item, at < 0 ? others.length : at);
    };
    const onEnd = (e) => {
      handle.removeEventListener('pointermove', onMove);
      handle.removeEventListener('pointerup', onEnd);
      handle.removeEventListener('pointercancel', onEnd);
      // A click that moved nothing ranks nothing.
      const still = itemsOf(list).every((it, i) => it === lifted.get(list).order[i]);
      drop(list, e.type === 'pointercancel' || still, still);
    };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onEnd);
    handle.addEventListener('pointercancel', onEnd);
  }

  // A place chosen in an option's own control moves it there; the others
  // close up behind it.
  function onChange(event) {
    const select = event.target;
    const item = select instanceof HTMLSelectElement && select.closest(ITEM);
    const list = item && item.closest(LIST + '.hubform-ranking--ready');
    if (!list || !event.isTrusted) return;
    if (select.selectedIndex > 0) moveTo(list, item, select.selectedIndex - 1);
    place(list, item);
    say(list, 'moved', item);
  }

  function setup(list) {
    if (list.classList.contains('hubform-ranking--ready')) return;
    list.classList.add('hubform-ranking--ready');
    const id = (selectOf(list) || {}).id + '-rank';
    const help = document.createElement('p');
    help.id = id + '-help';
    help.className = 'hubform-visually-hidden';
    help.textContent = list.getAttribute('data-hubform-rank-help') || '';
    const status = document.createElement('p');
    status.className = 'hubform-visually-hidden';
    status.setAttribute('aria-live', 'assertive');
    status.setAttribute('data-hubform-rank-status', '');
    list.after(help, status);
    const items = itemsOf(list);
    // The order a post or a draft gave: the places chosen first, in order.
    const rank = (it) => placeOf(it) || items.length + items.indexOf(it);
    list.append(...items.slice().sort((a, b) => rank(a) - rank(b)));
    for (const item of items) {
      const handle = document.createElement('button');
      handle.type = 'button';
      handle.className = 'hubform-rank-handle';
      handle.setAttribute('aria-label', (list.getAttribute('data-hubform-rank-move') || '{label}').replaceAll('{label}', labelOf(item)));
      handle.setAttribute('aria-describedby', help.id);
      item.prepend(handle);
    }
  }

  // enhance readies the rankings of root.
  function enhance(root) {
    if (root.matches && root.matches(LIST)) setup(root);
    if (root.querySelectorAll) for (const list of all(root, LIST)) setup(list);
  }

  const on = (type, fn) => document.addEventListener(type, fn);
  on('keydown', onKeydown);
  on('pointerdown', onPointerDown);
  on('change', onChange);
  // A handle left while lifted drops its item where it stands.
  document.addEventListener('focusout', (e) => {
    const list = e.target.closest && e.target.closest('.hubform-rank-handle') && e.target.closest(LIST);
    const move = list && lifted.get(list);
    if (move && !move.item.classList.contains('hubform-rank--dragging') && !move.item.contains(e.relatedTarget)) drop(list, false);
  });
  // Conditions swap fields in: a ranking among them is readied too.
  on('htmx:load', (e) => enhance(e.target));
  window.hubformRanking = { enhance };
})();
