package handlers_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static/browsertest"
)

// recallPageForm asks a name on step one; step two's label and the
// ending recall it.
const recallPageForm = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Thanks, {{name|friend}} — your e-mail?", "required": true}
  ],
  "steps": [{"id": "you", "fields": ["name"]}, {"id": "reach", "fields": ["email"]}],
  "endings": [{"id": "bye", "title": "See you, {{name}}"}]
}`

// TestRecallInTheBrowser: a name typed on step one is in step two's label
// and in the ending, in headless Chromium. With JavaScript the logic
// route fills the label as the name changes; without, every step shows at
// once and the label is filled when the form comes back. A name that is
// markup shows as text and runs nothing.
func TestRecallInTheBrowser(t *testing.T) {
	h := hubtest.Start(t, map[string]string{"acme/greet": recallPageForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/greet", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "greet")
		return handlers.Page(handlers.PageProps{Title: "Greet", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	const evil = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`
	for _, tc := range []struct {
		name, typed string
		scripts     bool
	}{{"with JavaScript", "Ada", true}, {"without JavaScript", "Ada", false}, {"markup as a name", evil, true}} {
		t.Run(tc.name, func(t *testing.T) {
			tab := browsertest.New(t, browsertest.WindowSize(1280, 900))
			if !tc.scripts {
				if _, err := chromedp.Call(tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
					t.Fatal(err)
				}
			}
			do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				ctx, cancel := context.WithTimeout(tab, 20*time.Second)
				defer cancel()
				if err := chromedp.Do(ctx, actions...); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			label := func() string {
				return strings.TrimSuffix(browsertest.Eval[string](t, tab, 5*time.Second,
					`document.querySelector('[data-hubform-slot="email"] label').textContent.trim()`), "*")
			}
			want := "Thanks, " + tc.typed + " — your e-mail?"
			do("opening the page", chromedp.Navigate(app.URL+"/greet"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`)))
			if got := label(); got != "Thanks, friend — your e-mail?" {
				t.Errorf("label before a name = %q, want the fallback", got)
			}
			const name, email = "hubform-acme-greet-name", "hubform-acme-greet-email"
			if tc.scripts {
				browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
				do("typing the name and going on", chromedp.SendKeys(chromedp.ID(name), tc.typed), chromedp.SendKeys(chromedp.ID(name), "\t"))
				browsertest.WaitFor(t, tab, 10*time.Second,
					`document.querySelector('[data-hubform-slot="email"] label').textContent.includes(`+jsString(tc.typed)+`)`)
				do("going to step two", chromedp.Click(chromedp.CSS(`[data-hubform-step="you"] [data-hubform-next]`)), chromedp.WaitVisible(chromedp.ID(email)))
				if got := label(); got != want {
					t.Errorf("step two's label = %q, want %q", got, want)
				}
			} else {
				// Every step shows at once: the form comes back, for an
				// address the browser takes and the app does not, with the
				// name in the label.
				do("typing the name and sending", chromedp.SendKeys(chromedp.ID(name), tc.typed), chromedp.SendKeys(chromedp.ID(email), "ada@example"),
					chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`.hubform-field-error`)))
				if got := label(); got != want {
					t.Errorf("label of the form back = %q, want %q", got, want)
				}
			}
			do("sending", chromedp.SetValue(chromedp.ID(email), "ada@example.com"),
				chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`.hubform-ending-title`)))
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('.hubform-ending-title').textContent`); got != "See you, "+tc.typed {
				t.Errorf("ending = %q, want %q", got, "See you, "+tc.typed)
			}
			if pwned := browsertest.Eval[bool](t, tab, 5*time.Second, `window.pwned !== undefined || document.querySelector('.hubform-form img, .hubform-ending img') !== null`); pwned {
				t.Error("an answer ran as markup")
			}
		})
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
