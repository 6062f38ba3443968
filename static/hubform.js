// hubform.js: progressive enhancement for server-rendered hubform forms.
//
// The forms work without this file: every step is visible and the form posts
// natively. With it, steps become a wizard, upload progress and busy state are
// shown, and captcha tokens reach the hidden _captchaToken input. It works with
// or without htmx, and is safe to load more than once and to run again on
// content that htmx swaps in.
(() => {
  'use strict';

  // A page that includes the script twice must not bind every listener twice.
  if (window.hubformScript) return;
  window.hubformScript = { enhance };

  const FORM = 'form[data-hubform-form]';
  const STEP = 'fieldset[data-hubform-step]';
  const TURNSTILE = '[data-vendor-turnstile]';

  // Current step index per form; a WeakMap so swapped-out forms are freed.
  const currentStep = new WeakMap();
  // Forms already enhanced; htmx:load fires for the body too, so enhance()
  // sees the same form more than once.
  const enhanced = new WeakSet();
  // Turnstile widget ids by mount element, to remove widgets whose mount was
  // swapped out and to reset the live one after a failed request.
  const turnstileWidgets = new Map();
  // Forms whose reCAPTCHA token was just fetched for a native submit.
  const recaptchaPassed = new WeakSet();

  // ---- Steps -------------------------------------------------------------

  function stepsOf(form) {
    return Array.from(form.querySelectorAll(STEP)).filter((s) => s.closest(FORM) === form);
  }

  function isWizard(form) {
    return form.classList.contains('hubform-js');
  }

  function setupSteps(form) {
    const steps = stepsOf(form);
    if (steps.length < 2) return;
    form.classList.add('hubform-js');
    for (const step of steps) {
      const legend = step.querySelector(':scope > legend');
      // A legend is not focusable by default; focus moves there on step change
      // so screen readers announce the new step's title.
      if (legend) legend.tabIndex = -1;
    }
    // The server marks the step that holds the first field error.
    const marked = steps.findIndex((s) => s.hasAttribute('data-hubform-current'));
    showStep(form, Math.max(marked, 0), false);
  }

  function showStep(form, index, moveFocus) {
    const steps = stepsOf(form);
    const last = steps.length - 1;
    index = Math.min(Math.max(index, 0), last);
    currentStep.set(form, index);
    steps.forEach((step, i) => {
      step.hidden = i !== index;
      // Every step renders both buttons; the first cannot go back and the last
      // submits instead of going on.
      for (const b of step.querySelectorAll('[data-hubform-back]')) b.hidden = i === 0;
      for (const b of step.querySelectorAll('[data-hubform-next]')) b.hidden = i === last;
    });
    for (const b of form.querySelectorAll('[data-hubform-submit]')) b.hidden = index !== last;
    updateStepStatus(form, index + 1, steps.length);
    if (moveFocus) {
      const legend = steps[index].querySelector(':scope > legend');
      if (legend) legend.focus();
    }
  }

  function updateStepStatus(form, n, total) {
    const status = form.querySelector('[data-hubform-step-status]');
    if (!status) return;
    // The template comes from the server so that it is translated there.
    const template = status.getAttribute('data-hubform-step-template') || '{n} / {total}';
    status.textContent = template.replaceAll('{n}', String(n)).replaceAll('{total}', String(total));
  }

  function stepIndexOf(form, el) {
    const step = el.closest(STEP);
    return step ? stepsOf(form).indexOf(step) : -1;
  }

  // Reports the first invalid control of the step; true when all are valid.
  function validateStep(step) {
    for (const control of step.elements) {
      if (control.willValidate && !control.checkValidity()) {
        control.reportValidity();
        return false;
      }
    }
    return true;
  }

  function goNext(form) {
    const steps = stepsOf(form);
    const index = currentStep.get(form) ?? 0;
    if (index >= steps.length - 1) return;
    if (!validateStep(steps[index])) return;
    showStep(form, index + 1, true);
  }

  function goBack(form) {
    showStep(form, (currentStep.get(form) ?? 0) - 1, true);
  }

  function isLastStep(form) {
    return (currentStep.get(form) ?? 0) >= stepsOf(form).length - 1;
  }

  function onClick(event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const form = target.closest(FORM);
    if (!form || !isWizard(form)) return;
    if (target.closest('[data-hubform-next]')) {
      event.preventDefault();
      goNext(form);
    } else if (target.closest('[data-hubform-back]')) {
      event.preventDefault();
      goBack(form);
    } else {
      const link = target.closest('[data-hubform-errors] a[href^="#"]');
      if (link) openErrorLink(form, link, event);
    }
  }

  // A link in the error summary points at a field that may sit in a hidden
  // step; open that step before the browser scrolls to it.
  function openErrorLink(form, link, event) {
    const field = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!field || !form.contains(field)) return;
    const index = stepIndexOf(form, field);
    if (index < 0) return;
    event.preventDefault();
    showStep(form, index, false);
    field.focus();
  }

  const NOT_IMPLICIT_SUBMIT = new Set(['button', 'submit', 'reset', 'image', 'file']);

  // Enter in a text field submits a form implicitly; on a step that is not the
  // last one that would skip the remaining steps, so it means Next there.
  function onKeydown(event) {
    if (event.key !== 'Enter' || event.isComposing || event.defaultPrevented) return;
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || NOT_IMPLICIT_SUBMIT.has(input.type)) return;
    const form = input.form;
    if (!form || !form.matches(FORM) || !isWizard(form) || isLastStep(form)) return;
    event.preventDefault();
    goNext(form);
  }

  // The browser refuses to submit when an invalid control is hidden, without
  // telling the person why. Open the step of the first invalid control instead.
  function onInvalid(event) {
    const control = event.target;
    const form = control.form;
    if (!form || !form.matches(FORM) || !isWizard(form)) return;
    const steps = stepsOf(form);
    const current = steps[currentStep.get(form) ?? 0];
    if (!current || current.contains(control)) return;
    // validity.valid fires no events, unlike checkValidity(), which would
    // recurse into this handler.
    const currentValid = Array.from(current.elements).every((c) => !c.willValidate || c.validity.valid);
    if (!currentValid) return;
    const index = stepIndexOf(form, control);
    if (index >= 0) showStep(form, index, false);
  }

  // ---- Error summary -----------------------------------------------------

  function focusErrorSummary(form) {
    const summary = form.querySelector('[data-hubform-errors]');
    if (summary && (summary.children.length > 0 || summary.textContent.trim() !== '')) {
      summary.focus();
    }
  }

  // ---- Request state and upload progress ---------------------------------

  function requestForm(event) {
    const elt = event.detail && event.detail.elt ? event.detail.elt : event.target;
    return elt instanceof Element && elt.matches(FORM) ? elt : null;
  }

  function onBeforeRequest(event) {
    const form = requestForm(event);
    if (!form) return;
    form.setAttribute('aria-busy', 'true');
    // Guards against a second click sending the submission twice.
    for (const b of form.querySelectorAll('[data-hubform-submit]')) b.disabled = true;
    const progress = form.querySelector('progress[data-hubform-progress]');
    if (progress) progress.value = 0;
  }

  function onAfterRequest(event) {
    const form = requestForm(event);
    if (!form) return;
    form.removeAttribute('aria-busy');
    for (const b of form.querySelectorAll('[data-hubform-submit]')) b.disabled = false;
    const progress = form.querySelector('progress[data-hubform-progress]');
    if (progress) progress.hidden = true;
  }

  function onProgress(event) {
    const form = event.target instanceof Element ? event.target.closest(FORM) : null;
    if (!form || !form.querySelector('input[type="file"]')) return;
    const progress = form.querySelector('progress[data-hubform-progress]');
    const { loaded, total, lengthComputable } = event.detail || {};
    if (!progress || !lengthComputable || !total) return;
    progress.hidden = false;
    // htmx reports download progress of the answer too; the bar only moves
    // forward so it does not jump back once the upload is done.
    progress.value = Math.max(progress.value, (loaded / total) * 100);
  }

  // ---- Turnstile ---------------------------------------------------------

  function captchaInput(formId) {
    const form = formId ? document.getElementById(formId) : null;
    return form ? form.querySelector('[data-hubform-captcha-token]') : null;
  }

  function setToken(formId, token) {
    // Looked up on every call: a swap may have replaced the form since render.
    const input = captchaInput(formId);
    if (input) input.value = token;
  }

  function renderTurnstile(root) {
    const turnstile = window.turnstile;
    if (!turnstile || typeof turnstile.render !== 'function') return;
    forgetDetachedWidgets(turnstile);
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
        if (id !== undefined && id !== null) turnstileWidgets.set(el, id);
      } catch (err) {
        // One broken mount must not keep the others from rendering; the hub
        // rejects a submission without a token and says so.
        el.removeAttribute('data-hubform-rendered');
        console.error('hubform: Turnstile render failed', err);
      }
    }
  }

  // A swap replaces the mount with a fresh one; the old widget would keep
  // running against a detached element.
  function forgetDetachedWidgets(turnstile) {
    for (const [el, id] of turnstileWidgets) {
      if (el.isConnected) continue;
      turnstileWidgets.delete(el);
      if (typeof turnstile.remove === 'function') {
        try {
          turnstile.remove(id);
        } catch {
          // Already gone; nothing to clean up.
        }
      }
    }
  }

  // A token is verifiable once: after a failed request the hub may have spent
  // it, so the widget must produce a new one.
  function onResponseError(event) {
    const form = requestForm(event);
    const turnstile = window.turnstile;
    if (!form || !form.id || !turnstile) return;
    for (const [el, id] of turnstileWidgets) {
      if (el.isConnected && el.dataset.form === form.id) {
        setToken(form.id, '');
        turnstile.reset(id);
      }
    }
  }

  // The Turnstile script is loaded with onload=hubformTurnstileReady.
  window.hubformTurnstileReady = () => renderTurnstile(document);

  // ---- reCAPTCHA v3 ------------------------------------------------------

  function recaptchaToken(form) {
    const grecaptcha = window.grecaptcha;
    const siteKey = form.getAttribute('data-hubform-recaptcha-sitekey');
    const action = form.dataset.hubformRecaptchaAction || 'submit';
    return new Promise((resolve, reject) => {
      grecaptcha.ready(() => {
        grecaptcha.execute(siteKey, { action }).then(resolve, reject);
      });
    }).then((token) => {
      const input = form.querySelector('[data-hubform-captcha-token]');
      if (input) input.value = token;
    });
  }

  function wantsRecaptcha(form) {
    return Boolean(form && form.matches(FORM) && form.getAttribute('data-hubform-recaptcha-sitekey') &&
      window.grecaptcha && typeof window.grecaptcha.execute === 'function');
  }

  // reCAPTCHA v3 tokens live two minutes, so one is fetched for each submit.
  function onConfirm(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !wantsRecaptcha(form)) return;
    event.preventDefault();
    // Without a token the hub rejects the submission and says why, which is
    // better than a form that silently does nothing.
    const send = () => event.detail.issueRequest(true);
    recaptchaToken(form).then(send, send);
  }

  function onNativeSubmit(event) {
    // htmx posts the form itself and asks through htmx:confirm.
    if (window.htmx || event.defaultPrevented) return;
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !wantsRecaptcha(form)) return;
    if (recaptchaPassed.has(form)) return;
    event.preventDefault();
    const send = () => {
      recaptchaPassed.add(form);
      // The prototype's submit: a control named "submit" would shadow form.submit.
      HTMLFormElement.prototype.submit.call(form);
    };
    recaptchaToken(form).then(send, send);
  }

  // ---- Wiring ------------------------------------------------------------

  function within(root, selector) {
    const found = Array.from(root.querySelectorAll ? root.querySelectorAll(selector) : []);
    if (root instanceof Element && root.matches(selector)) found.unshift(root);
    return found;
  }

  function configureHtmx() {
    // Partials are chosen by HX-Request; a history restore must get a full page.
    if (window.htmx && window.htmx.config) window.htmx.config.historyRestoreAsHxRequest = false;
  }

  function enhance(root) {
    configureHtmx();
    for (const form of within(root, FORM)) {
      if (enhanced.has(form)) continue;
      enhanced.add(form);
      setupSteps(form);
      focusErrorSummary(form);
    }
    renderTurnstile(root);
  }

  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeydown);
  // invalid does not bubble; capture sees it for every control.
  document.addEventListener('invalid', onInvalid, true);
  document.addEventListener('submit', onNativeSubmit);
  document.addEventListener('htmx:confirm', onConfirm);
  document.addEventListener('htmx:beforeRequest', onBeforeRequest);
  document.addEventListener('htmx:afterRequest', onAfterRequest);
  document.addEventListener('htmx:xhr:progress', onProgress);
  document.addEventListener('htmx:responseError', onResponseError);
  document.addEventListener('htmx:load', (event) => enhance(event.target));

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => enhance(document));
  } else {
    enhance(document);
  }
})();
