// design.js: the Design tab's colour pickers. Each colour is typed as
// #RRGGBB in its text box, which is what the form posts; beside it, a
// picker set from it and setting it, whose change asks for the preview
// as typing does.
(() => {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
  const full = (v) => (v.length === 4 ? '#' + [...v.slice(1)].map((c) => c + c).join('') : v).toLowerCase();
  const attach = (root) => {
    for (const text of root.querySelectorAll('input[data-design-color]:not([data-design-picker])')) {
      text.setAttribute('data-design-picker', '');
      const picker = document.createElement('input');
      picker.type = 'color';
      picker.className = 'design-picker';
      const label = document.querySelector(`label[for="${text.id}"]`);
      picker.setAttribute('aria-label', (label ? label.textContent : text.name) + ', picked');
      // An empty box keeps the default colour, which the picker shows.
      const sync = () => {
        const v = text.value.trim();
        if (hex.test(v)) picker.value = full(v);
        else if (v === '' && text.dataset.designDefault) picker.value = text.dataset.designDefault;
      };
      sync();
      text.addEventListener('input', sync);
      picker.addEventListener('input', () => {
        text.value = picker.value;
        text.dispatchEvent(new Event('input', { bubbles: true }));
      });
      text.after(picker);
    }
  };
  const start = () => attach(document);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  document.addEventListener('htmx:afterSettle', (e) => attach(e.target));
})();
