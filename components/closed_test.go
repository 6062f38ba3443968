package components_test

import (
	"testing"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// TestClosedSpeaksTheVisitorsLanguage checks where the closed state's text
// comes from: the schema's overlay first, then the languages built in,
// then English.
func TestClosedSpeaksTheVisitorsLanguage(t *testing.T) {
	s := oneStep(hubclient.Meta{Closed: true}, emailField)
	s.I18n.Translations = map[string]hubclient.Translation{"fr": {Texts: map[string]string{"closed": "Fermé pour cette année."}}}
	for _, tc := range []struct{ locale, want string }{
		{"", "This form is closed and no longer takes submissions."},
		{"fr-CA", "Fermé pour cette année."},
		{"de", "Dieses Formular ist geschlossen und nimmt keine Antworten mehr an."},
		{"nl", "Dit formulier is gesloten en neemt geen inzendingen meer aan."},
		{"ja", "This form is closed and no longer takes submissions."},
	} {
		p := props(s)
		p.Locale = tc.locale
		doc := renderDoc(t, components.HubForm(p))
		if got := doc.Find("[data-vendor-hubform-closed]").Text(); got != tc.want {
			t.Errorf("locale %q: %q, want %q", tc.locale, got, tc.want)
		}
		if doc.Find("form").Length() != 0 {
			t.Errorf("locale %q: a closed form renders its fields", tc.locale)
		}
	}
}

// TestBuiltinTranslationsAreComplete keeps the texts built in for other
// languages than English complete: each has every text the others have.
func TestBuiltinTranslationsAreComplete(t *testing.T) {
	for _, key := range []string{"loading", "loadFailed", "showForm", "retry", "closed", "duplicate"} {
		for _, locale := range []string{"de", "es", "fr", "it", "nl", "pt"} {
			if got := components.LocalText(nil, locale, key); got == components.DefaultTexts[key] || got == "" {
				t.Errorf("%s: %q has no translation in %s", key, got, locale)
			}
		}
	}
}
