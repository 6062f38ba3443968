package hosted

import (
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestAcceptedLocale(t *testing.T) {
	deFr := map[string]hubclient.Translation{"de": {}, "fr": {}, "pt-BR": {}}
	// A form written in German, with an English translation.
	enDe := map[string]hubclient.Translation{"en": {}, "es": {}}
	for _, tt := range []struct {
		header       string
		translations map[string]hubclient.Translation
		want         string
	}{
		{"", deFr, ""},
		{"de", deFr, "de"},
		{"de-CH, en;q=0.5", deFr, "de"},
		{"en-US, en;q=0.9, de;q=0.8", deFr, ""},
		{"ja, fr;q=0.3", deFr, "fr"},
		{"fr;q=0.3, de;q=0.9", deFr, "de"},
		{"pt-BR", deFr, "pt-BR"},
		{"ja", deFr, ""},
		{"*", deFr, ""},
		{"not a header;;", deFr, ""},
		{"de", nil, ""},
		{"en-GB", enDe, "en"},
		{"es-MX, en;q=0.5", enDe, "es"},
		{"de", enDe, ""},
	} {
		if got := acceptedLocale(tt.header, tt.translations); got != tt.want {
			t.Errorf("Accept-Language %q, translations %v: %q, want %q", tt.header, tt.translations, got, tt.want)
		}
	}
}
