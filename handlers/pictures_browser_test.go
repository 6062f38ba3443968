package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static/browsertest"
)

// mugSVG is a picture of an option, served by the app.
const mugSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 120"><rect width="160" height="120" fill="#fd7e14"/></svg>`

// TestPicturesInTheBrowser lays options with pictures out in headless
// Chromium, at 1280 and 375 px: each a card with its picture above its
// button and label, side by side, none overlapping another.
func TestPicturesInTheBrowser(t *testing.T) {
	axe := browsertest.Axe(t)
	e := echo.New()
	app := httptest.NewServer(e)
	defer app.Close()
	form := strings.ReplaceAll(`{
  "title": "Mugs",
  "fields": [{"name": "mug", "type": "radio", "label": "Pick a mug", "options": [
    {"value": "red", "label": "Red", "image": "{app}/mug.svg", "alt": "A red mug"},
    {"value": "blue", "label": "Blue", "image": "{app}/mug.svg?blue", "alt": "A blue mug"},
    {"value": "green", "label": "Green", "image": "{app}/mug.svg?green", "alt": "A green mug"}]}],
  "steps": [{"id": "main", "fields": ["mug"]}]
}`, "{app}", app.URL)
	h := hubtest.Start(t, map[string]string{"acme/mugs": form})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/mug.svg", func(c echo.Context) error { return c.Blob(http.StatusOK, "image/svg+xml", []byte(mugSVG)) })
	e.GET("/mugs", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "mugs")
		return handlers.Page(handlers.PageProps{Title: "Mugs", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	// overlaps lists what is wrong with the cards' layout, "" for nothing.
	const overlaps = `(() => {
	  const cards = [...document.querySelectorAll('.hubform-choice--picture')];
	  const bad = [];
	  cards.forEach((card, i) => {
	    const img = card.querySelector('img').getBoundingClientRect();
	    const input = card.querySelector('input').getBoundingClientRect();
	    const box = card.getBoundingClientRect();
	    if (img.height < 40) bad.push('card ' + i + ': picture ' + img.height + ' px high');
	    if (input.top < img.bottom) bad.push('card ' + i + ': the button is beside the picture, not under it');
	    if (img.left < box.left || img.right > box.right) bad.push('card ' + i + ': the picture overflows its card');
	    const next = cards[i + 1];
	    if (next) {
	      const n = next.getBoundingClientRect();
	      if (n.top < box.bottom && n.left < box.right && n.right > box.left) bad.push('cards ' + i + ' and ' + (i + 1) + ' overlap');
	    }
	  });
	  return bad.join('; ');
	})()`
	for _, width := range []int{1280, 375} {
		tab := browsertest.New(t, browsertest.WindowSize(width, 900))
		ctx, cancel := context.WithTimeout(tab, 20*time.Second)
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/mugs"), chromedp.WaitReady(chromedp.CSS(`.hubform-choice--picture img`))); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitFor(t, tab, 5*time.Second, `[...document.querySelectorAll('.hubform-choice--picture img')].every(i => i.complete && i.naturalWidth > 0)`)
		if bad := browsertest.Eval[string](t, tab, 5*time.Second, overlaps); bad != "" {
			t.Errorf("at %d px: %s", width, bad)
		}
		browsertest.CheckAxe(t, tab, axe, "options with pictures")
		browsertest.Screenshot(t, tab, "pictures-"+map[bool]string{true: "375", false: "1280"}[width < 600])
		cancel()
	}
}
