package hubclient

import "cmp"

// Inherit returns the theme of a form whose own theme is t, in a
// workspace whose brand is brand: each member t leaves empty is brand's.
// The colours go together, all of t's when it sets any (its light ones,
// its dark ones or its mode), else all of brand's: each set was checked
// for contrast on its own (Theme.Check), a mix of the two never was.
// Neither is changed; the result is nil when both are.
func (t *Theme) Inherit(brand *Theme) *Theme {
	switch {
	case brand == nil:
		return t
	case t == nil:
		return brand
	}
	out := *t
	if !t.setsColors() {
		out.Accent, out.Background, out.Text, out.Dark, out.Mode = brand.Accent, brand.Background, brand.Text, brand.Dark, brand.Mode
	}
	out.Radius = cmp.Or(t.Radius, brand.Radius)
	out.Font = cmp.Or(t.Font, brand.Font)
	out.Buttons = cmp.Or(t.Buttons, brand.Buttons)
	out.Density = cmp.Or(t.Density, brand.Density)
	out.Logo = cmp.Or(t.Logo, brand.Logo)
	out.Cover = cmp.Or(t.Cover, brand.Cover)
	return &out
}

// setsColors reports whether t sets a colour or the mode of its colours.
func (t *Theme) setsColors() bool {
	return t.Accent != "" || t.Background != "" || t.Text != "" || t.Dark != nil || t.Mode != ""
}
