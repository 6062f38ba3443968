// html-validate's configuration for the console's pages, as the hub sends
// them (TestBrowserConsoleQuality). Every rule of the two presets applies,
// structural and accessibility ones included, but for the settings below.
module.exports = {
  extends: ["html-validate:recommended", "html-validate:document"],
  rules: {
    // templ writes the doctype in lower case; HTML treats both cases alike,
    // so this is a question of style, not of validity.
    "doctype-style": "off",
    // Subresource integrity guards files from another origin; the console
    // loads only its own, from the hub that serves the page.
    "require-sri": ["error", { target: "crossorigin" }],
    // Check boxes that share a name are how a form sends several values
    // (the inbox's selection, id=…&id=…); the other shared kinds stay as
    // the rule has them.
    "form-dup-name": ["error", { shared: ["radio", "checkbox", "button", "reset", "submit"] }],
  },
};
