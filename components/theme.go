package components

import (
	"context"
	"io"
	"strings"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// theme returns the form's theme when it passes its checks: a theme the
// hub would refuse, from a hub of another make, is not applied.
func (p HubFormProps) theme() *hubclient.Theme {
	if p.InitialSchema == nil || p.InitialSchema.Theme == nil || len(p.InitialSchema.Theme.Check()) > 0 {
		return nil
	}
	return p.InitialSchema.Theme
}

// themeMode is the root's data-hubform-mode: "light" when the theme
// keeps its light colours whatever the system.
func (p HubFormProps) themeMode() string {
	if t := p.theme(); t != nil {
		return t.Mode
	}
	return ""
}

// themeButtons is the root's data-hubform-buttons: "outline" when the
// theme asks for it.
func (p HubFormProps) themeButtons() string {
	if t := p.theme(); t != nil && t.Buttons != "filled" {
		return t.Buttons
	}
	return ""
}

// themeStyle writes the form's theme as the custom properties of its
// root, in a <style> element with the page's nonce (templ.WithNonce), so
// that a page whose policy takes only its own styles shows it. The rules
// select the root by its id: they win over hubform.css's defaults, and
// over an app's own rules for .hubform; an app's rules for the form's id,
// in a stylesheet after the form, win over them.
func themeStyle(p HubFormProps) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		t := p.theme()
		if t == nil {
			return nil
		}
		css := themeCSS(p.rootID(), t)
		if css == "" {
			return nil
		}
		_, err := io.WriteString(w, `<style nonce="`+templ.EscapeString(templ.GetNonce(ctx))+`">`+css+`</style>`)
		return err
	})
}

// themeCSS is the rules of t for the root of id: the light scheme's, and
// the dark one's unless the theme keeps its light colours.
func themeCSS(id string, t *hubclient.Theme) string {
	css := themeRule("#"+id, t.Properties(false))
	if t.Mode != hubclient.ThemeLight {
		if dark := themeRule("#"+id, colorsOnly(t.Properties(true))); dark != "" {
			css += "@media (prefers-color-scheme:dark){" + dark + "}"
		}
	}
	return css
}

// themeRule is a rule of selector setting ps, "" for none. The values
// are the theme's checked colours and hubclient's own CSS.
func themeRule(selector string, ps []hubclient.ThemeProperty) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(selector + "{")
	for _, p := range ps {
		b.WriteString(p.Name + ":" + p.Value + ";")
	}
	return b.String() + "}"
}

// colorsOnly leaves out of ps what does not change with the scheme.
func colorsOnly(ps []hubclient.ThemeProperty) []hubclient.ThemeProperty {
	var out []hubclient.ThemeProperty
	for _, p := range ps {
		switch p.Name {
		case "--hubform-radius", "--hubform-font", "--hubform-gap":
		default:
			out = append(out, p)
		}
	}
	return out
}

// themeImages returns the theme's cover and logo to show, nil each when
// none or when the theme is not applied.
func (p HubFormProps) themeImages() (cover, logo *hubclient.ThemeImage) {
	if t := p.theme(); t != nil {
		return t.Cover, t.Logo
	}
	return nil, nil
}
