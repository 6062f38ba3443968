package hosted_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// themedForms are a form in its owner's colours, font, corners and
// outline buttons, and one that keeps its light colours in a dark system.
var themedForms = map[string]string{
	"acme/themed": `{"title": "Themed", "fields": [
	  {"name": "name", "type": "text", "label": "Your name", "help": "As on your badge", "required": true},
	  {"name": "size", "type": "radio", "label": "Size", "options": ["S", "M", "L"]}],
	  "steps": [{"id": "one", "fields": ["name", "size"]}],
	  "theme": {"accent": "#7c3aed", "background": "#fffbeb", "text": "#1c1917", "radius": "large", "font": "serif", "buttons": "outline",
	    "logo": {"src": "{brand}/logo.svg", "alt": "Acme"}, "cover": {"src": "{brand}/cover.svg"},
	    "dark": {"accent": "#c4b5fd", "background": "#1c1917", "text": "#fafaf9"}}}`,
	"acme/light": `{"title": "Always light", "fields": [{"name": "name", "type": "text", "label": "Your name"}],
	  "steps": [{"id": "one", "fields": ["name"]}], "theme": {"accent": "#0f766e", "mode": "light"}}`,
}

// TestThemeBrowser: the hub's page of a themed form shows the theme's
// colours on the page and the form, light and dark, and its logo and
// cover from the brand's site, under the page's strict policy (the
// theme's style carries its nonce); a theme that keeps
// its light colours keeps them in a dark system; axe finds no contrast
// problem.
func TestThemeBrowser(t *testing.T) {
	// The brand's pictures are on a site of their own.
	brand := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48"><rect width="160" height="48" fill="#7c3aed"/></svg>`)
	}))
	t.Cleanup(brand.Close)
	forms := map[string]string{}
	for k, v := range themedForms {
		forms[k] = strings.ReplaceAll(v, "{brand}", strings.Replace(brand.URL, "127.0.0.1", "localhost", 1))
	}
	h := startHub(t, forms)
	axe := browsertest.Axe(t)
	style := func(tab context.Context, sel, prop string) string {
		return browsertest.Eval[string](t, tab, 5*time.Second, fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).%s`, sel, prop))
	}
	for _, width := range []int{1280, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tab := browsertest.New(t, browsertest.WindowSize(width, 900))
			act(t, tab, chromedp.Navigate(h.Server.URL+"/f/acme/themed"))
			browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('[data-hubform-submit]')`)
			for _, scheme := range []string{"light", "dark"} {
				browsertest.ColorScheme(t, tab, scheme)
				want := map[string][3]string{
					"light": {"rgb(255, 251, 235)", "rgb(28, 25, 23)", "rgb(124, 58, 237)"},
					"dark":  {"rgb(28, 25, 23)", "rgb(250, 250, 249)", "rgb(196, 181, 253)"},
				}[scheme]
				if got := style(tab, "body", "backgroundColor"); got != want[0] {
					t.Errorf("%s: the page's background is %s, want %s", scheme, got, want[0])
				}
				if got := style(tab, "label", "color"); got != want[1] {
					t.Errorf("%s: a label's colour is %s, want %s", scheme, got, want[1])
				}
				// Outline buttons: the accent draws the words and the border.
				if got := style(tab, "[data-hubform-submit]", "color"); got != want[2] {
					t.Errorf("%s: the button's words are %s, want the accent %s", scheme, got, want[2])
				}
				if got := style(tab, "[data-hubform-submit]", "backgroundColor"); got != "rgba(0, 0, 0, 0)" {
					t.Errorf("%s: an outline button is filled with %s", scheme, got)
				}
				if got := style(tab, "input[name=name]", "borderTopLeftRadius"); got != "12px" {
					t.Errorf("%s: the large radius is %s", scheme, got)
				}
				for _, sel := range []string{".hubform", "h1"} {
					if got := style(tab, sel, "fontFamily"); !strings.HasPrefix(got, "Charter") {
						t.Errorf("%s: the serif font of %s is %s", scheme, sel, got)
					}
				}
				browsertest.CheckAxe(t, tab, axe, "the themed form, "+scheme)
				browsertest.Screenshot(t, tab, fmt.Sprintf("theme-%d-%s", width, scheme))
			}
			browsertest.ColorScheme(t, tab, "")
			// The logo and the cover load from the brand's site.
			browsertest.WaitFor(t, tab, 5*time.Second, `[...document.querySelectorAll('.hubform-brand img')].every((i) => i.complete && i.naturalWidth > 0) && document.querySelectorAll('.hubform-brand img').length === 2`)
			if alt := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('.hubform-logo').alt`); alt != "Acme" {
				t.Errorf("the logo's alt is %q", alt)
			}
			// Above the page's heading, the cover first.
			if !browsertest.Eval[bool](t, tab, 5*time.Second, `(() => {
			  const top = (s) => document.querySelector(s).getBoundingClientRect().top;
			  return top('.hubform-cover') < top('.hubform-logo') && top('.hubform-logo') < top('h1') && top('h1') < top('label');
			})()`) {
				t.Error("the cover, the logo, the heading and the questions are not in this order")
			}
			if v := browsertest.Eval[int](t, tab, 5*time.Second, `document.querySelectorAll('.hubform > style[nonce]').length`); v != 1 {
				t.Errorf("%d styles of the theme with a nonce, want 1", v)
			}
		})
	}

	t.Run("light", func(t *testing.T) {
		tab := browsertest.New(t)
		browsertest.ColorScheme(t, tab, "dark")
		act(t, tab, chromedp.Navigate(h.Server.URL+"/f/acme/light"))
		browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('[data-hubform-submit]')`)
		if got := style(tab, "body", "backgroundColor"); got != "rgb(255, 255, 255)" {
			t.Errorf("a form kept light shows on %s in a dark system", got)
		}
		if got := style(tab, "input[name=name]", "backgroundColor"); got != "rgb(255, 255, 255)" {
			t.Errorf("its field is %s", got)
		}
		if got := style(tab, "[data-hubform-submit]", "backgroundColor"); got != "rgb(15, 118, 110)" {
			t.Errorf("its button is %s, want the accent", got)
		}
		browsertest.CheckAxe(t, tab, axe, "the form kept light, in a dark system")
		browsertest.Screenshot(t, tab, "theme-kept-light-dark-system")
	})
}
