// hubform-upload.js sends the files chosen in a hubform form from the
// browser straight to the hub's storage; hubform.js loads it at the first
// file chosen in a form that offers it (data-hubform-upload, the app's
// upload route). The app's route answers an address and a ticket, the file
// is PUT to the address, and the form posts the ticket in the file's
// place: the app never carries the bytes. Each file is listed in its
// input's drop zone with its size and a progress bar, and can be cancelled, retried or removed; a
// post sent meanwhile waits until every upload is done.
(() => {
  'use strict';

  if (window.hubformUpload) return;

  const UPLOAD_ROUTE = 'data-hubform-upload';
  const uploads = new WeakMap(); // list item → its upload
  const waiting = new WeakSet(); // forms whose post waits for their uploads
  const all = (root, selector) => Array.from(root.querySelectorAll(selector));

  function uploadTexts(form) {
    try {
      return JSON.parse(form.getAttribute('data-hubform-upload-texts') || '{}');
    } catch {
      return {};
    }
  }

  // The list of a file input: the element the server rendered for it.
  const uploadListOf = (input) => document.getElementById(input.id + '-uploads');

  // add uploads files, chosen in input, from the browser.
  function add(input, files) {
    const form = input.form;
    const route = form && form.getAttribute(UPLOAD_ROUTE);
    const list = route && uploadListOf(input);
    if (!list || !input.isConnected) return;
    // A field of one file takes the new choice in place of the old.
    if (!input.multiple) for (const item of all(list, 'li')) removeUpload(item);
    // The post carries tickets: the input is emptied so that it sends no bytes.
    input.value = '';
    for (const file of input.multiple ? files : files.slice(0, 1)) {
      const item = newUploadItem(form, list, file);
      uploads.set(item, { form, input, list, route, file, abort: null, state: '' });
      startUpload(item);
    }
    syncRequired(input, list);
    filesChanged(input);
  }

  // filesChanged tells hubform.js that input's files changed, for its drop
  // zone to show them.
  const filesChanged = (input) => input.dispatchEvent(new CustomEvent('hubform:files', { bubbles: true }));

  // fileSize says a file's size, as the drop zone does, when it is there.
  const fileSize = (size, el) => {
    const script = window.hubformDrop;
    if (!script || !script.fileSize) return '';
    return script.fileSize(size, (el.closest('[lang]') || document.documentElement).lang || '');
  };

  function newUploadItem(form, list, file) {
    const texts = uploadTexts(form);
    const item = document.createElement('li');
    item.className = 'hubform-upload';
    const name = document.createElement('span');
    name.className = 'hubform-upload-name';
    name.textContent = file.name;
    const size = document.createElement('span');
    size.className = 'hubform-upload-size';
    size.textContent = fileSize(file.size, list);
    const progress = document.createElement('progress');
    progress.max = 100;
    progress.value = 0;
    progress.setAttribute('aria-label', (texts.uploading || 'Uploading {name}').replaceAll('{name}', file.name));
    const status = document.createElement('span');
    status.className = 'hubform-upload-status';
    status.setAttribute('role', 'status');
    const cancel = button(texts.uploadCancel || 'Cancel', 'data-hubform-upload-cancel');
    const retry = button(texts.uploadRetry || 'Try again', 'data-hubform-upload-retry');
    const remove = button(texts.uploadRemove || 'Remove', 'data-hubform-upload-remove');
    item.append(name, size, progress, status, cancel, retry, remove);
    list.append(item);
    list.hidden = false;
    return item;
  }

  function button(label, attr) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'hubform-button hubform-button--secondary';
    b.setAttribute(attr, '');
    b.textContent = label;
    return b;
  }

  // state is uploading, done or failed; failed with retry when trying
  // again may help (the hub or the network failed, not the file refused).
  function setUploadState(item, state, message, retry) {
    const u = uploads.get(item);
    u.state = state;
    item.setAttribute('data-state', state);
    item.querySelector('.hubform-upload-status').textContent = message || '';
    item.querySelector('progress').hidden = state !== 'uploading';
    item.querySelector('[data-hubform-upload-cancel]').hidden = state !== 'uploading';
    item.querySelector('[data-hubform-upload-retry]').hidden = !(state === 'failed' && retry);
    item.querySelector('[data-hubform-upload-remove]').hidden = state === 'uploading';
    if (state === 'done') sendIfWaiting(u.form);
    else if (state === 'failed') waiting.delete(u.form);
  }

  function startUpload(item) {
    const u = uploads.get(item);
    const texts = uploadTexts(u.form);
    // A file that could not go on its own (the hub or the network failed,
    // not the file refused) goes back in its input: sent with the form, it
    // travels through the app as without JavaScript, unless a retry works.
    const failed = (message, retry) => {
      if (retry) withFile(u, true);
      setUploadState(item, 'failed', message || (retry ? texts.uploadFallback : texts.uploadFailed) || 'The file could not be uploaded.', retry);
    };
    withFile(u, false);
    item.querySelector('progress').value = 0;
    setUploadState(item, 'uploading', '');
    const mime = u.file.type || 'application/octet-stream';
    // A file sent in parts resumes with the parts not yet sent.
    if (u.parts) {
      sendParts(item, u.parts, failed);
      return;
    }
    post(item, u.route, { field: u.input.name, filename: u.file.name, size: String(u.file.size), mime, parts: '1' }, failed, (answer) => {
      if (answer.parts && answer.parts.urls && answer.complete && answer.ticket) {
        u.parts = { answer, etags: [] };
        sendParts(item, u.parts, failed);
      } else if (answer.uploadUrl && answer.ticket) put(item, answer, mime, failed);
      else failed('', true);
    });
  }

  // post sends values to the app's route, with the rendering's key and the
  // CSRF token, and calls done with an answer that has a ticket.
  function post(item, route, values, failed, done) {
    const u = uploads.get(item);
    const body = new URLSearchParams(values);
    const key = u.form.querySelector('input[name="_idempotencyKey"]');
    if (key) body.set(key.name, key.value);
    const headers = {};
    const csrf = u.form.querySelector('input[data-hubform-csrf]');
    if (csrf) {
      body.set(csrf.name, csrf.value);
      headers['X-CSRF-Token'] = csrf.value;
    }
    const controller = new AbortController();
    u.abort = () => controller.abort();
    fetch(route, { method: 'POST', body, headers, credentials: 'same-origin', signal: controller.signal })
      .then((res) => res.json().then((answer) => ({ res, answer }), () => ({ res, answer: {} })))
      .then(({ res, answer }) => {
        if (uploads.get(item) !== u) return;
        if (!res.ok || !answer.key) {
          failed(answer.error, res.status >= 500 || res.status === 429);
          return;
        }
        done(answer);
      })
      .catch((err) => {
        if (err && err.name === 'AbortError') return;
        failed('', true);
      });
  }

  // uploaded marks item done: the form posts its ticket.
  function uploaded(item, ticketValue) {
    const u = uploads.get(item);
    const ticket = document.createElement('input');
    ticket.type = 'hidden';
    ticket.name = u.input.name;
    ticket.value = ticketValue;
    item.append(ticket);
    item.querySelector('progress').value = 100;
    const texts = uploadTexts(u.form);
    setUploadState(item, 'done', (texts.uploaded || '{name} is uploaded.').replaceAll('{name}', u.file.name));
  }

  // put sends the file with XMLHttpRequest, whose upload events report
  // progress, which fetch's do not.
  function put(item, answer, mime, failed) {
    const u = uploads.get(item);
    const xhr = new XMLHttpRequest();
    u.abort = () => xhr.abort();
    const progress = item.querySelector('progress');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total) progress.value = (e.loaded / e.total) * 100;
    });
    xhr.addEventListener('load', () => {
      if (xhr.status < 200 || xhr.status >= 300) failed('', true);
      else uploaded(item, answer.ticket);
    });
    xhr.addEventListener('error', () => failed('', true));
    xhr.open('PUT', answer.uploadUrl);
    xhr.setRequestHeader('Content-Type', mime);
    xhr.send(u.file);
  }

  // PARALLEL parts go at a time; a part is tried ATTEMPTS times, waiting
  // longer each time, and while the browser is offline it waits for the
  // network without counting.
  const PARALLEL = 4;
  const ATTEMPTS = 5;

  // sendParts PUTs the parts of a file the hub takes in parts, those not
  // sent yet (a retry or a resume sends no part twice), then has the app
  // complete the upload.
  function sendParts(item, parts, failed) {
    const u = uploads.get(item);
    const { answer, etags } = parts;
    const size = answer.parts.partSize;
    const count = answer.parts.urls.length;
    const progress = item.querySelector('progress');
    const xhrs = new Set();
    const loaded = new Map(); // part number → bytes sent of a part under way
    let next = 0;
    let over = false;
    const stop = () => {
      over = true;
      for (const xhr of xhrs) xhr.abort();
    };
    u.abort = stop;
    const showProgress = () => {
      let sent = 0;
      etags.forEach((etag, i) => { if (etag) sent += Math.min(size, u.file.size - i * size); });
      for (const n of loaded.values()) sent += n;
      progress.value = (sent / u.file.size) * 100;
    };
    const pending = () => {
      while (next < count && etags[next]) next++;
      return next < count ? next++ : -1;
    };
    const give = (failure) => {
      if (over) return;
      stop();
      failure();
    };
    // renew has the parts' URLs signed again, once for all the parts that
    // found theirs expired.
    let renewing = null;
    const renew = () => {
      renewing = renewing || new Promise((resolve, reject) => {
        const values = [['field', u.input.name], ['ticket', answer.ticket], ['uploadId', answer.parts.uploadId]];
        post(item, answer.renew, values, reject, (renewed) => {
          answer.parts.urls = renewed.parts.urls;
          resolve();
        });
        u.abort = stop; // post took it for its request
      }).finally(() => { renewing = null; });
      return renewing;
    };
    const sendPart = (i, attempt) => {
      if (over) return;
      const xhr = new XMLHttpRequest();
      xhrs.add(xhr);
      xhr.upload.addEventListener('progress', (e) => {
        loaded.set(i, e.loaded);
        showProgress();
      });
      const retry = () => {
        xhrs.delete(xhr);
        loaded.delete(i);
        showProgress();
        if (over) return;
        if (!navigator.onLine) {
          const status = item.querySelector('.hubform-upload-status');
          status.textContent = uploadTexts(u.form).uploadOffline || 'No network: the upload goes on when it is back.';
          window.addEventListener('online', () => {
            status.textContent = '';
            sendPart(i, attempt);
          }, { once: true });
        } else if (attempt + 1 < ATTEMPTS) {
          setTimeout(() => sendPart(i, attempt + 1), 500 * 2 ** attempt);
        } else give(() => failed('', true));
      };
      xhr.addEventListener('load', () => {
        const etag = xhr.getResponseHeader('ETag');
        if (xhr.status >= 200 && xhr.status < 300 && etag) {
          xhrs.delete(xhr);
          loaded.delete(i);
          etags[i] = etag;
          showProgress();
          const n = pending();
          if (n >= 0) sendPart(n, 0);
          else if (!xhrs.size && etags.filter(Boolean).length === count) complete(item, parts, failed);
        } else if (xhr.status >= 500) retry();
        else if (xhr.status === 403 && answer.renew && attempt + 1 < ATTEMPTS) {
          // Its URL expired: the upload outlasted it.
          xhrs.delete(xhr);
          loaded.delete(i);
          renew().then(() => sendPart(i, attempt + 1), () => give(() => failed('', true)));
        } else {
          // Refused (no longer expected): the next try starts over.
          u.parts = null;
          give(() => failed('', true));
        }
      });
      xhr.addEventListener('error', retry);
      xhr.open('PUT', answer.parts.urls[i]);
      xhr.send(u.file.slice(i * size, Math.min((i + 1) * size, u.file.size)));
    };
    showProgress();
    for (let k = 0; k < PARALLEL; k++) {
      const n = pending();
      if (n >= 0) sendPart(n, 0);
    }
    if (!xhrs.size) complete(item, parts, failed);
  }

  function complete(item, parts, failed) {
    const u = uploads.get(item);
    const { answer, etags } = parts;
    const values = [['field', u.input.name], ['ticket', answer.ticket], ['uploadId', answer.parts.uploadId]];
    for (const etag of etags) values.push(['etag', etag]);
    post(item, answer.complete, values, (message, retry) => {
      // Parts the hub could not join are sent again on the next try.
      if (!retry) u.parts = null;
      failed(message, true);
    }, () => {
      u.parts = null;
      uploaded(item, answer.ticket);
    });
  }

  // withFile puts u's file in its input, or takes it out, leaving the
  // others there.
  function withFile(u, present) {
    const current = Array.from(u.input.files || []);
    if (current.includes(u.file) === present) return;
    const dt = new DataTransfer();
    for (const f of current) if (f !== u.file) dt.items.add(f);
    if (present) dt.items.add(u.file);
    u.input.files = dt.files;
  }

  function removeUpload(item) {
    const u = uploads.get(item);
    if (!u) return;
    if (u.abort) u.abort();
    withFile(u, false);
    uploads.delete(item);
    waiting.delete(u.form); // a file given up is a change of mind: no post
    item.remove();
    if (!u.list.querySelector('li')) u.list.hidden = true;
    syncRequired(u.input, u.list);
    filesChanged(u.input);
  }

  // A required file input, emptied by the script, is satisfied by its
  // uploads; the browser would otherwise refuse to send the form.
  function syncRequired(input, list) {
    if (input.required || input.hasAttribute('data-hubform-required')) {
      const has = !!list.querySelector('li');
      input.required = !has;
      input.toggleAttribute('data-hubform-required', true);
    }
  }

  function onClick(event) {
    const target = event.target instanceof Element ? event.target : null;
    const item = target && target.closest('li.hubform-upload');
    if (!item || !uploads.has(item)) return;
    if (target.closest('[data-hubform-upload-retry]')) startUpload(item);
    else if (target.closest('[data-hubform-upload-cancel], [data-hubform-upload-remove]')) {
      const input = uploads.get(item).input;
      removeUpload(item);
      input.focus();
    }
  }

  const running = (form) => all(form, 'li.hubform-upload').filter((item) => uploads.has(item) && uploads.get(item).state === 'uploading');

  // uploading reports whether form has uploads still running. If so, the
  // post waits for them, says so, and is sent once the last is done; a
  // failed or cancelled upload leaves it to the visitor.
  function uploading(form) {
    const items = running(form);
    if (!items.length) return false;
    const texts = uploadTexts(form);
    items[0].querySelector('.hubform-upload-status').textContent = texts.uploadWait || 'Please wait until your files are uploaded.';
    waiting.add(form);
    return true;
  }

  function sendIfWaiting(form) {
    if (!waiting.has(form) || running(form).length) return;
    waiting.delete(form);
    if (form.isConnected) form.requestSubmit();
  }

  document.addEventListener('click', onClick);
  window.hubformUpload = { add, uploading };
})();
