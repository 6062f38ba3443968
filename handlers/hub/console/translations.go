package console

import (
	"maps"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"github.com/hubform/hubform/hubclient"
)

// addLocale adds an empty translation overlay for the posted locale,
// whose texts the owner fills in next.
func addLocale(d *formFile, c echo.Context) error {
	loc := strings.TrimSpace(c.FormValue("locale"))
	if _, err := language.Parse(loc); err != nil || loc == "" {
		return problem("i18n.translations", "%q is not a language tag such as de or pt-BR", loc)
	}
	s := d.Schema
	if _, ok := s.I18n.Translations[loc]; ok {
		return problem("i18n.translations", "the form has a %s translation already", loc)
	}
	if s.I18n.Translations == nil {
		s.I18n.Translations = map[string]hubclient.Translation{}
	}
	s.I18n.Translations[loc] = hubclient.Translation{}
	return nil
}

// editTranslation writes the posted translation of each text into the
// locale's overlay; an empty input removes the translation, so that
// visitors read the base text.
func editTranslation(d *formFile, c echo.Context) error {
	loc := c.Param("locale")
	s := d.Schema
	tr, ok := s.I18n.Translations[loc]
	if !ok {
		return problem("i18n.translations", "the form has no %s translation", loc)
	}
	form, _ := c.FormParams()
	for _, t := range texts(s) {
		if form.Has(t.Path) {
			t.set(&tr, strings.TrimSpace(form.Get(t.Path)))
		}
	}
	s.I18n.Translations[loc] = tr
	return nil
}

// sortedLocales returns the locales s translates to, sorted.
func sortedLocales(s *hubclient.Schema) []string {
	return slices.Sorted(maps.Keys(s.I18n.Translations))
}
