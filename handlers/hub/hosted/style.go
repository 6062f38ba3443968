package hosted

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"net/http"

	"github.com/a-h/templ"
	"github.com/hubform/hubform/hubclient"
	"github.com/labstack/echo/v4"
)

// FaviconPath is where the hub serves the pages' icon.
const FaviconPath = Path + "/favicon.svg"

//go:embed favicon.svg
var faviconSVG []byte

// favicon serves the pages' icon, which browsers may keep for a day. The
// policy keeps an SVG opened on its own from running anything.
func favicon(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "image/svg+xml", faviconSVG)
}

// pageCSS lays the page out around HubForm, whose own styles (hubform.css)
// the handlers' head adds: the page takes the form's background, light or
// dark as the system is, keeps a margin on a phone's narrow screen, and
// gives the form's title as the page's heading.
const pageCSS = `body{margin:0;background:#fff;color:#111827;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}` +
	`@media (prefers-color-scheme:dark){body{background:#111827;color:#f3f4f6}}` +
	`main{box-sizing:border-box;max-width:42rem;margin:0 auto;padding:1.5rem 1rem}` +
	`main>.hubform{margin:0 auto}` +
	`main h1{font-size:1.375rem;line-height:1.25;margin:0 0 1rem}` +
	// The page's heading is the form's title: HubForm's own, a level
	// below, would repeat it.
	`.hosted-title+.hubform .hubform-title{display:none}` +
	// A theme's cover and logo come first, above the page's heading.
	`main:has(>.hubform>.hubform-brand){display:flex;flex-direction:column}` +
	`main:has(>.hubform>.hubform-brand)>.hubform{display:contents}` +
	`main>.hubform>.hubform-brand{order:-1}`

// inlineStyle writes css in a <style> element with the answer's nonce.
func inlineStyle(css string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<style nonce="`+templ.EscapeString(templ.GetNonce(ctx))+`">`+css+`</style>`)
		return err
	})
}

// htmxConfig is htmx's configuration for a page: the style htmx adds for
// its request indicators carries the answer's nonce, which the policy asks
// of every inline style.
func htmxConfig(ctx context.Context) string {
	b, _ := json.Marshal(map[string]string{"inlineStyleNonce": templ.GetNonce(ctx)})
	return string(b)
}

// frameCSS lays out a page shown in a frame of another site: the site's
// own background shows through, the form keeps a small margin for its
// focus rings, and nothing but the form sizes the page, whose height the
// frame follows.
const frameCSS = `html,body{background:transparent}` +
	`@media (prefers-color-scheme:dark){html,body{background:transparent}}` +
	`main.hosted-frame{max-width:none;padding:.25rem .25rem .5rem}`

// themePageCSS is the colours of the page around a form of theme t: its
// background and text, as the form's, in each scheme the form shows, and
// its font; ""
// for none, or for a theme HubForm does not apply.
func themePageCSS(t *hubclient.Theme) string {
	if t == nil || len(t.Check()) > 0 {
		return ""
	}
	body := func(dark bool) string {
		var bg, fg string
		for _, p := range t.Properties(dark) {
			switch p.Name {
			case "--hubform-bg":
				bg = p.Value
			case "--hubform-fg":
				fg = p.Value
			}
		}
		if bg == "" {
			return ""
		}
		return "body{background:" + bg + ";color:" + fg + "}"
	}
	light, dark := body(false), body(true)
	for _, p := range t.Properties(false) {
		if p.Name == "--hubform-font" {
			// The page's heading, the form's title, in the form's font.
			light += "body{font-family:" + p.Value + "}"
		}
	}
	if t.Mode == hubclient.ThemeLight {
		// pageCSS's dark colours give way to the light ones.
		dark = cmp.Or(light, "body{background:#fff;color:#111827}")
	}
	if dark != "" {
		light += "@media (prefers-color-scheme:dark){" + dark + "}"
	}
	return light
}
