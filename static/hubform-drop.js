// hubform-drop.js makes the drop zone of each file input of a hubform form
// (data-hubform-drop) one, and the pad of each signature, whose drawing is
// a file too (data-hubform-drop="signature"): hubform.js loads it for a
// form that has one. Without it the zone frames the browser's own input,
// and a signature is a typed name, which work as ever.
(() => {
  'use strict';

  if (window.hubformDrop) return;

  // A file input's drop zone (data-hubform-drop) takes a click, a drop or
  // the keyboard through the input, which covers it out of sight; the
  // zone names the files the input holds, with their sizes and a button to
  // remove each. Files uploaded from the browser are listed by
  // hubform-upload.js, in the same zone: the input is then emptied.
  const DROP = '[data-hubform-drop]:not([data-hubform-drop="signature"])';
  const PAD = '[data-hubform-drop="signature"]';
  const all = (root, selector) => Array.from(root.querySelectorAll(selector));

  // fileSize says size, in bytes, in the page's language: "146 kB".
  function fileSize(size, lang) {
    const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'];
    let i = 0;
    while (size >= 1000 && i < units.length - 1) {
      size /= 1000;
      i++;
    }
    try {
      return new Intl.NumberFormat(lang || undefined, { style: 'unit', unit: units[i], maximumFractionDigits: size < 10 && i > 0 ? 1 : 0 }).format(size);
    } catch {
      return Math.round(size) + ' ' + ['B', 'kB', 'MB', 'GB'][i];
    }
  }

  const langOf = (el) => ((el.closest('[lang]') || document.documentElement).lang || '');

  function setupDrop(zone) {
    const input = zone.querySelector(':scope > input[type="file"]');
    if (!input) return;
    zone.classList.add('hubform-drop--ready');
    showDrop(input);
  }

  // showDrop shows the files input holds, and the prompt.
  function showDrop(input) {
    const zone = input.closest(DROP);
    if (!zone || !zone.classList.contains('hubform-drop--ready')) return;
    const uploads = document.getElementById(input.id + '-uploads');
    const uploaded = !!(uploads && uploads.querySelector('li'));
    // A file the uploader put back in the input, to go with the form, is
    // in its list already.
    const files = uploaded ? [] : Array.from(input.files || []);
    const list = zone.querySelector('[data-hubform-drop-files]');
    if (list) {
      list.replaceChildren(...files.map((file) => dropItem(zone, input, file)));
      list.hidden = !files.length;
    }
    const chosen = uploaded || files.length > 0;
    zone.toggleAttribute('data-hubform-drop-chosen', chosen);
    const text = zone.querySelector('[data-hubform-drop-text]');
    if (text) text.textContent = (chosen && zone.getAttribute('data-hubform-drop-replace')) || zone.getAttribute('data-hubform-drop-prompt') || '';
  }

  function dropItem(zone, input, file) {
    const item = document.createElement('li');
    item.className = 'hubform-drop-file';
    const name = document.createElement('span');
    name.className = 'hubform-drop-name';
    name.textContent = file.name;
    const size = document.createElement('span');
    size.className = 'hubform-drop-size';
    size.textContent = fileSize(file.size, langOf(zone));
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'hubform-button hubform-button--secondary';
    remove.textContent = zone.getAttribute('data-hubform-drop-remove') || 'Remove';
    // The button names the file: several Remove buttons read alike.
    remove.setAttribute('aria-label', remove.textContent + ' ' + file.name);
    remove.addEventListener('click', () => {
      const dt = new DataTransfer();
      for (const f of Array.from(input.files || [])) if (f !== file) dt.items.add(f);
      input.files = dt.files;
      showDrop(input);
      input.focus();
    });
    item.append(name, size, remove);
    return item;
  }

  // A file dragged over a zone lights it up; the drop itself falls on the
  // input, which takes it as the browser does.
  function onDrag(event) {
    const zone = event.target instanceof Element ? event.target.closest(DROP) : null;
    for (const z of all(document, DROP + '[data-hubform-drop-over]')) if (z !== zone) z.removeAttribute('data-hubform-drop-over');
    if (!zone || !zone.classList.contains('hubform-drop--ready')) return;
    zone.toggleAttribute('data-hubform-drop-over', event.type === 'dragenter' || event.type === 'dragover');
  }

  function onFilesShown(event) {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.type === 'file') showDrop(input);
  }

  // A signature's pad (data-hubform-drop="signature") takes a drawing
  // with a mouse, a pen or a finger, which goes with the post as a PNG
  // file of the field; the typed name stays beside it, for who cannot draw
  // or uses a keyboard. Without this script the field is the typed name.
  function setupPad(pad) {
    const field = pad.closest('[data-hubform-signature]');
    if (!field || field.hasAttribute('data-hubform-signature-ready')) return;
    const canvas = pad.querySelector('canvas');
    const typed = field.querySelector('input[type="text"]');
    if (!canvas || !typed) return;
    field.setAttribute('data-hubform-signature-ready', '');
    pad.hidden = false;
    const required = typed.required;
    const ctx = canvas.getContext('2d');
    let drawing = false;
    let drawn = false;
    let last = null;

    // The canvas draws at the screen's resolution, in ink on paper in
    // either colour scheme, so that the drawing reads on any page.
    function size() {
      const ratio = window.devicePixelRatio || 1;
      const box = canvas.getBoundingClientRect();
      canvas.width = Math.max(1, Math.round(box.width * ratio));
      canvas.height = Math.max(1, Math.round(box.height * ratio));
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.lineWidth = 2.5;
      ctx.lineCap = ctx.lineJoin = 'round';
      ctx.strokeStyle = '#111827';
    }
    size();

    const point = (event) => {
      const box = canvas.getBoundingClientRect();
      return { x: event.clientX - box.left, y: event.clientY - box.top };
    };

    canvas.addEventListener('pointerdown', (event) => {
      drawing = true;
      last = point(event);
      canvas.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    canvas.addEventListener('pointermove', (event) => {
      if (!drawing) return;
      const p = point(event);
      ctx.beginPath();
      ctx.moveTo(last.x, last.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      last = p;
      drawn = true;
    });
    const end = () => {
      if (!drawing) return;
      drawing = false;
      if (drawn) keep();
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);

    // keep puts the drawing in a file input of the field's name, which the
    // post carries; no change event, so it goes with the post.
    function keep() {
      canvas.toBlob((blob) => {
        if (!blob) return;
        let input = field.querySelector('input[type="file"]');
        if (!input) {
          input = document.createElement('input');
          input.type = 'file';
          input.name = typed.name;
          input.hidden = true;
          input.tabIndex = -1;
          input.setAttribute('aria-hidden', 'true');
          pad.append(input);
        }
        const files = new DataTransfer();
        files.items.add(new File([blob], 'signature.png', { type: 'image/png' }));
        input.files = files.files;
        typed.required = false;
        field.setAttribute('data-hubform-signed', '');
      }, 'image/png');
    }

    pad.querySelector('[data-hubform-signature-clear]').addEventListener('click', () => {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      drawn = false;
      const input = field.querySelector('input[type="file"]');
      if (input) input.remove();
      typed.required = required;
      field.removeAttribute('data-hubform-signed');
    });
  }

  // enhance readies the drop zones and signature pads of root.
  function enhance(root) {
    for (const zone of all(root, DROP)) setupDrop(zone);
    for (const pad of all(root, PAD)) setupPad(pad);
  }

  const on = (type, fn) => document.addEventListener(type, fn);
  on('change', onFilesShown);
  on('hubform:files', onFilesShown); // hubform-upload.js changed the files
  for (const type of ['dragenter', 'dragover', 'dragleave', 'drop']) on(type, onDrag);
  window.hubformDrop = { enhance, fileSize };
})();
