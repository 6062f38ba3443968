package hosted

import (
	"maps"
	"net/http"
	"slices"

	"golang.org/x/text/language"

	"github.com/hubform/hubform/hubclient"
)

// chooseLocale returns the locale to show a form in: the query's "locale"
// when the visitor picked one (a link, or the loaded page's own URL), else
// the form's translation the browser asks for first (Accept-Language),
// else "", the form's base language.
func chooseLocale(r *http.Request, s *hubclient.Schema) string {
	if l := r.URL.Query().Get("locale"); l != "" {
		return l
	}
	return acceptedLocale(r.Header.Get("Accept-Language"), s.I18n.Translations)
}

// acceptedLocale returns the key of the translation that best matches an
// Accept-Language header, or "" when the base language matches as well or
// better, or nothing matches closely: a visitor who asks for English, then
// German, reads a form written in English and translated into German in
// English. The schema does not name its base language; a form is taken to
// be written in English unless it has a translation into English itself.
func acceptedLocale(header string, translations map[string]hubclient.Translation) string {
	if header == "" || len(translations) == 0 {
		return ""
	}
	wants, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(wants) == 0 {
		return ""
	}
	base := language.English
	keys := []string{""}
	var tags []language.Tag
	for _, key := range slices.Sorted(maps.Keys(translations)) {
		tag, err := language.Parse(key)
		if err != nil {
			continue
		}
		if b, _ := tag.Base(); b.String() == "en" {
			base = language.Und
		}
		keys, tags = append(keys, key), append(tags, tag)
	}
	_, i, confidence := language.NewMatcher(append([]language.Tag{base}, tags...)).Match(wants...)
	if confidence < language.High {
		return ""
	}
	return keys[i]
}
