// hubform.js enhances server-rendered hubform forms, which work without it:
// steps become a wizard, busy state and upload progress show, captcha
// tokens reach the form, and a form that offers saving saves itself as the
// visitor moves from step to step (hubform-draft.js). It works with or without htmx, may be loaded twice,
// and runs again on content htmx swaps in.
(() => {
  'use strict';

  // Loaded twice, it must not bind every listener twice.
  if (window.hubformScript) return;
  window.hubformScript = { enhance };

  const FORM = 'form[data-hubform-form]';
  const STEP = 'fieldset[data-hubform-step]';
  const TURNSTILE = '[data-vendor-turnstile]';
  const SUBMIT = '[data-hubform-submit]';
  const PROGRESS = 'progress[data-hubform-progress]';
  const TOKEN = '[data-hubform-captcha-token]';
  const SAVE = 'data-hubform-save';

  // Weak, so that swapped-out forms are freed.
  const currentStep = new WeakMap();
  // htmx:load fires for the body too.
  const enhanced = new WeakSet();
  // Forms whose token was fetched for a native submit.
  const recaptchaPassed = new WeakSet();
  // Turnstile widget ids by mount, to remove widgets swapped out and to
  // reset live ones after a failed request.
  const turnstileWidgets = new Map();

  const all = (root, selector) => Array.from(root.querySelectorAll(selector));
  const formOf = (el) => (el instanceof Element ? el.closest(FORM) : null);
  const isWizard = (form) => form.classList.contains('hubform-js');
  const current = (form) => currentStep.get(form) || 0;
  const legendOf = (step) => step.querySelector(':scope > legend');

  // Steps

  // The steps of form itself, not of a form nested in it.
  const stepsOf = (form) => all(form, STEP).filter((s) => s.closest(FORM) === form && !s.querySelector('[data-hubform-skip]'));

  function setupSteps(form) {
    const steps = stepsOf(form);
    if (steps.length < 2) return;
    form.classList.add('hubform-js');
    // Focus moves to the legend on a step change, so that screen readers
    // read the new step's title.
    for (const step of steps) {
      const legend = legendOf(step);
      if (legend) legend.tabIndex = -1;
    }
    // The server marks the step holding the first field error.
    showStep(form, Math.max(steps.findIndex((s) => s.hasAttribute('data-hubform-current')), 0), false);
  }

  function showStep(form, index, moveFocus) {
    const steps = stepsOf(form);
    const last = steps.length - 1;
    index = Math.min(Math.max(index, 0), last);
    currentStep.set(form, index);
    // Every step has both buttons: the first cannot go back, the last
    // submits instead of going on.
    steps.forEach((step, i) => {
      step.hidden = i !== index;
      for (const b of all(step, '[data-hubform-back]')) b.hidden = i === 0;
      for (const b of all(step, '[data-hubform-next]')) b.hidden = i === last;
    });
    for (const b of all(form, SUBMIT)) b.hidden = index !== last;
    // Send stands where Next stood, beside Back: on the row of the step
    // shown. Without the script it comes after every step.
    const nav = index === last && steps[index].querySelector('.hubform-nav');
    if (nav) nav.append(...all(form, SUBMIT));
    showStepper(form, steps, index);
    // A save posts the step shown, at which the draft opens again.
    const stepInput = form.querySelector('input[name="_hubformDraftStep"]');
    if (stepInput) stepInput.value = steps[index].getAttribute('data-hubform-step');
    const legend = legendOf(steps[index]);
    if (moveFocus && legend) legend.focus();
    if (index > 0) count(form, steps[index].getAttribute('data-hubform-step'));
  }

  // showStepper shows step index of steps in the form's stepper: the
  // status line, and the segments of the steps shown, those before index
  // done. Steps the conditions skip have no segment.
  function showStepper(form, steps, index) {
    const status = form.querySelector('[data-hubform-step-status]');
    if (status) {
      // The server translates the template.
      status.textContent = (status.dataset.hubformStepTemplate || '{n} / {total}').replaceAll('{n}', index + 1).replaceAll('{total}', steps.length);
    }
    const stepper = form.querySelector('[data-hubform-stepper]');
    if (stepper) stepper.hidden = steps.length < 2;
    for (const item of stepper ? all(stepper, 'li') : []) {
      const i = steps.findIndex((s) => s.dataset.hubformStep === item.dataset.hubformStepperStep);
      item.hidden = i < 0;
      item.dataset.state = i < index ? 'done' : i > index ? 'todo' : 'current';
      item.setAttribute('aria-current', i === index ? 'step' : 'false');
    }
  }

  function stepIndexOf(form, el) {
    const step = el.closest(STEP);
    return step ? stepsOf(form).indexOf(step) : -1;
  }

  function goNext(form) {
    const steps = stepsOf(form);
    const index = current(form);
    if (index >= steps.length - 1) return;
    // Reports the step's first invalid control and stays.
    for (const c of steps[index].elements) {
      if (c.willValidate && !c.checkValidity()) return c.reportValidity();
    }
    showStep(form, index + 1, true);
    draft('autosave', form);
  }

  function onClick(event) {
    const target = event.target;
    const form = formOf(target);
    if (!form || !isWizard(form)) return;
    let link;
    if (target.closest('[data-hubform-next]')) {
      event.preventDefault();
      goNext(form);
    } else if (target.closest('[data-hubform-back]')) {
      event.preventDefault();
      showStep(form, current(form) - 1, true);
      draft('autosave', form);
    } else if ((link = target.closest('[data-hubform-errors] a[href^="#"]'))) {
      // The error summary links to a field that may sit in a hidden step:
      // open it before the browser scrolls there.
      const field = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      const index = field && form.contains(field) ? stepIndexOf(form, field) : -1;
      if (index < 0) return;
      event.preventDefault();
      showStep(form, index, false);
      field.focus();
    }
  }

  const NOT_IMPLICIT_SUBMIT = ['button', 'submit', 'reset', 'image', 'file'];

  // Enter in a text field submits implicitly, which on any step but the
  // last would skip the rest: there it means Next.
  function onKeydown(event) {
    const input = event.target;
    if (event.key !== 'Enter' || event.isComposing || event.defaultPrevented) return;
    if (!(input instanceof HTMLInputElement) || NOT_IMPLICIT_SUBMIT.includes(input.type)) return;
    const form = input.form;
    if (!form || !form.matches(FORM) || !isWizard(form)) return;
    if (current(form) >= stepsOf(form).length - 1) return;
    event.preventDefault();
    goNext(form);
  }

  // The browser will not submit with an invalid control hidden, and does not
  // say why: open the step of the first invalid control instead.
  function onInvalid(event) {
    const control = event.target;
    const form = control.form;
    if (!form || !form.matches(FORM) || !isWizard(form)) return;
    const step = stepsOf(form)[current(form)];
    if (!step || step.contains(control)) return;
    // validity.valid, unlike checkValidity(), fires no invalid event back here.
    if (!Array.from(step.elements).every((c) => !c.willValidate || c.validity.valid)) return;
    const index = stepIndexOf(form, control);
    if (index >= 0) showStep(form, index, false);
  }

  // Request state and upload progress

  // requestForm is the form a request is of; posted, also when htmx posts
  // it from a submit button (the save button). A condition's request, from
  // a field's slot, is not the form's: its progress is not the form's.
  function requestForm(event, posted) {
    let elt = (event.detail && event.detail.elt) || event.target;
    if (posted && elt && elt.form) elt = elt.form;
    return elt instanceof Element && elt.matches(FORM) ? elt : null;
  }

  // While a request runs the form is busy and its submit buttons disabled,
  // so that a second click does not send it twice. The upload bar starts
  // at nothing with each post, and goes when it ends.
  function setBusy(event, busy) {
    const posted = requestForm(event, true);
    const progress = posted && posted.querySelector(PROGRESS);
    if (progress) busy ? (progress.value = 0) : (progress.hidden = true);
    const form = requestForm(event);
    if (!form) return;
    if (busy) form.setAttribute('aria-busy', 'true');
    else form.removeAttribute('aria-busy');
    for (const b of all(form, SUBMIT)) b.disabled = busy;
  }

  function onProgress(event) {
    const form = requestForm(event, true);
    const progress = form && form.querySelector('input[type="file"]') && form.querySelector(PROGRESS);
    const { loaded, total, lengthComputable } = event.detail || {};
    if (!progress || !lengthComputable || !total) return;
    progress.hidden = false;
    // htmx reports the answer's download too: the bar only moves forward.
    progress.value = Math.max(progress.value, (loaded / total) * 100);
  }

  // Uploads from the browser

  // With JavaScript, a chosen file goes from the browser straight to the
  // hub's storage (hubform-upload.js, loaded at the first file chosen in a
  // form that offers it). Until it runs, the file stays in its input and
  // a post carries it as without JavaScript.
  const scriptURL = document.currentScript ? document.currentScript.src : '';
  // Promises of the scripts loaded, by name.
  const loaded = {};

  // loadScript loads the script of part, hubform-part.js next to this
  // one, once, and gives what it sets as window.hubformPart.
  function loadScript(part) {
    const name = 'hubform-' + part + '.js';
    const global = 'hubform' + part[0].toUpperCase() + part.slice(1);
    if (!loaded[name]) {
      loaded[name] = new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = new URL(name, scriptURL || location.href).href;
        script.onload = () => (window[global] ? resolve(window[global]) : reject(name));
        script.onerror = reject;
        document.head.append(script);
      });
      loaded[name].catch(() => delete loaded[name]);
    }
    return loaded[name];
  }

  const loadUploader = () => loadScript('upload');

  // Forms whose chosen files wait for hubform-upload.js, and those of them
  // whose post waits too.
  const loadingFor = new WeakSet();
  const postWaits = new WeakSet();

  function onFileChange(event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== 'file' || !input.files || !input.files.length) return;
    const form = formOf(input);
    if (!form || !form.hasAttribute('data-hubform-upload')) return;
    const files = Array.from(input.files);
    loadingFor.add(form);
    const loaded = (u) => {
      loadingFor.delete(form);
      if (u) u.add(input, files);
      // A post sent meanwhile waits for the uploads, or goes with the
      // files in it if the script could not load.
      if (postWaits.delete(form) && !(u && u.uploading(form))) form.requestSubmit();
    };
    loadUploader().then(loaded, (err) => {
      console.error('hubform: no uploads from the browser', err);
      loaded(null);
    });
  }

  // uploading reports whether form has uploads still running, or about to
  // start, which the post waits for.
  function uploading(form) {
    if (!form) return false;
    if (loadingFor.has(form)) {
      postWaits.add(form);
      return true;
    }
    return !!(window.hubformUpload && window.hubformUpload.uploading(form));
  }

  // Turnstile

  // The form is looked up on every call: a swap may have replaced it.
  function setToken(formId, token) {
    const form = formId && document.getElementById(formId);
    const input = form && form.querySelector(TOKEN);
    if (input) input.value = token;
  }

  function renderTurnstile(root) {
    const turnstile = window.turnstile;
    if (!turnstile || typeof turnstile.render !== 'function') return;
    // A swap replaces a mount with a fresh one; the old widget would run on
    // against a detached element.
    for (const [el, id] of turnstileWidgets) {
      if (el.isConnected) continue;
      turnstileWidgets.delete(el);
      try {
        if (turnstile.remove) turnstile.remove(id);
      } catch {
        // Already gone.
      }
    }
    for (const el of within(root, TURNSTILE)) {
      if (el.hasAttribute('data-hubform-rendered')) continue;
      el.setAttribute('data-hubform-rendered', '');
      const formId = el.dataset.form;
      try {
        const id = turnstile.render(el, {
          sitekey: el.dataset.sitekey,
          appearance: 'interaction-only',
          callback: (token) => setToken(formId, token),
          'expired-callback': () => setToken(formId, ''),
        });
        if (id != null) turnstileWidgets.set(el, id);
      } catch (err) {
        // One broken mount must not stop the others; the hub rejects a
        // submission without a token and says so.
        el.removeAttribute('data-hubform-rendered');
        console.error('hubform: Turnstile render failed', err);
      }
    }
  }

  // A token verifies once, and the hub may have spent it on a request that
  // failed: the widget must make a new one.
  function onResponseError(event) {
    const form = requestForm(event);
    if (!form || !form.id || !window.turnstile) return;
    for (const [el, id] of turnstileWidgets) {
      if (el.isConnected && el.dataset.form === form.id) {
        setToken(form.id, '');
        window.turnstile.reset(id);
      }
    }
  }

  // The Turnstile script is loaded with onload=hubformTurnstileReady.
  window.hubformTurnstileReady = () => renderTurnstile(document);

  // reCAPTCHA v3

  // Tokens live two minutes, so each submit fetches one first. Without a
  // token the hub rejects the submission and says why, which beats a form
  // that silently does nothing: the form is sent either way.
  function withRecaptcha(event, send) {
    const form = event.target;
    const grecaptcha = window.grecaptcha;
    const siteKey = form instanceof HTMLFormElement && form.matches(FORM) && form.getAttribute('data-hubform-recaptcha-sitekey');
    if (!siteKey || !grecaptcha || typeof grecaptcha.execute !== 'function') return;
    event.preventDefault();
    const action = form.dataset.hubformRecaptchaAction || 'submit';
    new Promise((resolve, reject) => grecaptcha.ready(() => grecaptcha.execute(siteKey, { action }).then(resolve, reject)))
      .then((token) => {
        const input = form.querySelector(TOKEN);
        if (input) input.value = token;
      })
      .then(send, send);
  }

  function onConfirm(event) {
    if (uploading(requestForm(event))) {
      event.preventDefault();
      return;
    }
    withRecaptcha(event, () => event.detail.issueRequest(true));
  }

  function onNativeSubmit(event) {
    const form = event.target;
    // A save goes as it is, with files still uploading in their inputs,
    // and needs no captcha.
    if (event.submitter && event.submitter.hasAttribute('data-hubform-save-button')) return;
    if (uploading(form)) {
      event.preventDefault();
      return;
    }
    // htmx posts the form itself, and asks through htmx:confirm.
    if (window.htmx || event.defaultPrevented || recaptchaPassed.has(form)) return;
    withRecaptcha(event, () => {
      recaptchaPassed.add(form);
      // The prototype's: a control named "submit" would shadow form.submit.
      HTMLFormElement.prototype.submit.call(form);
    });
  }

  // Counts

  // The start and the steps counted, by rendering: a form swapped in
  // again after a refused post keeps its rendering's key.
  const counted = new Map();
  const renderingOf = (form) => (form.querySelector('input[name="_idempotencyKey"]') || {}).value || '';

  // count tells the app of a visitor's start ('' step) or of a step
  // reached, once each per rendering; a post of the form then says so.
  function count(form, step) {
    const route = form.getAttribute('data-hubform-event');
    const rendering = renderingOf(form);
    const done = counted.get(rendering) || new Set();
    if (!route || done.has(step)) return;
    counted.set(rendering, done.add(step));
    markCounted(form);
    const body = new URLSearchParams({ event: step ? 'step' : 'start', step });
    const headers = {};
    const csrf = form.querySelector('input[data-hubform-csrf]');
    if (csrf) {
      body.set(csrf.name, csrf.value);
      headers['X-CSRF-Token'] = csrf.value;
    }
    fetch(route, { method: 'POST', body, headers, credentials: 'same-origin', keepalive: true }).catch(() => {});
  }

  function markCounted(form) {
    if (form.querySelector('input[name="_hubformCounted"]')) return;
    const mark = document.createElement('input');
    mark.type = 'hidden';
    mark.name = '_hubformCounted';
    mark.value = '1';
    form.append(mark);
  }

  function onInput(event) {
    const form = formOf(event.target);
    if (form) count(form, '');
  }

  // Drafts

  // draft calls fn of hubform-draft.js with form, a form that offers saving,
  // once the script is loaded; without it the form saves by hand only.
  function draft(fn, form) {
    if (!form.hasAttribute(SAVE)) return;
    loadScript('draft').then((d) => d[fn](form), (err) => console.debug('hubform: no drafts', err));
  }

  // Wiring

  function within(root, selector) {
    const found = root.querySelectorAll ? all(root, selector) : [];
    if (root instanceof Element && root.matches(selector)) found.unshift(root);
    return found;
  }

  function enhance(root) {
    // Partials are chosen by HX-Request; a history restore needs a whole page.
    if (window.htmx && htmx.config) htmx.config.historyRestoreAsHxRequest = false;
    for (const form of within(root, FORM)) {
      if (enhanced.has(form)) continue;
      enhanced.add(form);
      if (counted.has(renderingOf(form))) markCounted(form);
      else if (form.querySelector('input[name="_hubformCounted"]')) {
        // A form that continues a draft was started, up to the step it opens at.
        const steps = stepsOf(form);
        const at = Math.max(steps.findIndex((s) => s.hasAttribute('data-hubform-current')), 0);
        counted.set(renderingOf(form), new Set(['', ...steps.slice(0, at + 1).map((s) => s.getAttribute('data-hubform-step'))]));
      }
      setupSteps(form);
      // A part of the form made by a script of its own names it: a file
      // input's drop zone (data-hubform-part="drop", hubform-drop.js), a
      // ranking ("ranking", hubform-ranking.js).
      for (const el of all(form, '[data-hubform-part]')) loadScript(el.dataset.hubformPart).then((d) => d.enhance(form), () => {});
      draft('resume', form);
      const summary = form.querySelector('[data-hubform-errors]');
      if (summary && (summary.children.length || summary.textContent.trim())) summary.focus();
    }
    // A draft sent is done with, whether htmx or the browser posted it.
    if (within(root, '[data-hubform-sent]').length) loadScript('draft').then((d) => d.sent(root), () => {});
    renderTurnstile(root);
  }

  const on = (type, fn, capture) => document.addEventListener(type, fn, capture);
  on('click', onClick);
  on('keydown', onKeydown);
  // invalid does not bubble; capture sees all.
  on('invalid', onInvalid, true);
  on('change', onFileChange);
  on('input', onInput);
  on('change', onInput);
  on('submit', onNativeSubmit);
  on('htmx:confirm', onConfirm);
  on('htmx:beforeRequest', (event) => setBusy(event, true));
  on('htmx:afterRequest', (event) => setBusy(event, false));
  on('htmx:xhr:progress', onProgress);
  on('htmx:responseError', onResponseError);
  on('htmx:load', (event) => enhance(event.target));
  // Skipped steps come and go.
  on('htmx:oobAfterSwap', (e) => (e = formOf(e.target)) && (isWizard(e) ? showStep(e, current(e)) : setupSteps(e)));

  if (document.readyState === 'loading') on('DOMContentLoaded', () => enhance(document));
  else enhance(document);
})();
