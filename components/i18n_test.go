package components_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

const i18nJSON = `{
  "title": "Contact us",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "placeholder": "Jane", "help": "Your full name.", "required": true},
    {"name": "email", "type": "email", "label": "Email", "placeholder": "jane@example.com", "help": "We reply here."},
    {"name": "topic", "type": "select", "label": "Topic", "placeholder": "Pick one",
     "options": [{"value": "sales", "label": "Sales"}, {"value": "support", "label": "Support"}, "other"]}
  ],
  "steps": [
    {"id": "about", "title": "About you", "fields": ["name", "email"]},
    {"id": "details", "title": "Details", "fields": ["topic"]}
  ],
  "buttons": {"submit": "Send", "back": "Back"},
  "i18n": {"translations": {
    "de": {
      "title": "Kontakt",
      "description": "Wir antworten bald.",
      "fields": {
        "name": {"label": "Ihr Name", "placeholder": "Erika", "help": "Vor- und Nachname."},
        "email": {"placeholder": "erika@example.de"},
        "topic": {"label": "Thema", "options": {"sales": "Vertrieb", "other": "Sonstiges"}},
        "ghost": {"label": "Not a field"}
      },
      "steps": {"about": {"title": "Über Sie"}, "ghost": {"title": "Not a step"}},
      "buttons": {"submit": "Senden", "next": "Weiter"},
      "texts": {"errorSummary": "Bitte korrigieren Sie:", "submitted": "Danke!", "loadFailed": "Nicht geladen.", "unconfigured": "Noch nicht eingerichtet.", "choose": "Bitte wählen"}
    },
    "pt": {"title": "Contato (pt)"},
    "pt-BR": {"title": "Contato (pt-BR)"},
    "de-x-formal": {"title": "Kontakt (Sie)"},
    "zz-bad-": {"title": "unusable key"}
  }}
}`

func i18nSchema(t testing.TB) *hubclient.Schema {
	t.Helper()
	var s hubclient.Schema
	if err := json.Unmarshal([]byte(i18nJSON), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// deepCopy copies s through its JSON form, sharing nothing with it.
func deepCopy(t testing.TB, s *hubclient.Schema) *hubclient.Schema {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out hubclient.Schema
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestLocalize(t *testing.T) {
	l := components.Localize(i18nSchema(t), "de")
	if l.Locale != "de" {
		t.Errorf("Locale = %q, want de", l.Locale)
	}
	s := l.Schema
	name, email, topic := s.Field("name"), s.Field("email"), s.Field("topic")
	tests := []struct{ what, got, want string }{
		{"title", s.Title, "Kontakt"},
		{"description", s.Description, "Wir antworten bald."},
		{"name label", name.Label, "Ihr Name"},
		{"name placeholder", name.Placeholder, "Erika"},
		{"name help", name.Help, "Vor- und Nachname."},
		{"email label (untranslated)", email.Label, "Email"},
		{"email placeholder", email.Placeholder, "erika@example.de"},
		{"email help (untranslated)", email.Help, "We reply here."},
		{"topic label", topic.Label, "Thema"},
		{"topic placeholder (untranslated)", topic.Placeholder, "Pick one"},
		{"option sales", topic.Options[0].Label, "Vertrieb"},
		{"option support (untranslated)", topic.Options[1].Label, "Support"},
		{"bare option other", topic.Options[2].Label, "Sonstiges"},
		{"option value kept", topic.Options[0].Value, "sales"},
		{"step about", s.Steps[0].Title, "Über Sie"},
		{"step details (untranslated)", s.Steps[1].Title, "Details"},
		{"button submit", s.Buttons.Submit, "Senden"},
		{"button next (base has none)", s.Buttons.Next, "Weiter"},
		{"button back (untranslated)", s.Buttons.Back, "Back"},
		{"text errorSummary", l.Texts.T("errorSummary"), "Bitte korrigieren Sie:"},
		{"text submitted", l.Texts.T("submitted"), "Danke!"},
		{"text required (untranslated)", l.Texts.T("required"), components.DefaultTexts["required"]},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if len(s.Fields) != 3 || len(s.Steps) != 2 {
		t.Errorf("localized schema has %d fields and %d steps, want 3 and 2: the overlay must not add any", len(s.Fields), len(s.Steps))
	}
}

func TestLocalizeMatch(t *testing.T) {
	tests := []struct {
		locale     string
		wantLocale string
		wantTitle  string
	}{
		{"", "", "Contact us"},
		{"de", "de", "Kontakt"},
		{"DE", "de", "Kontakt"},
		{"de-AT", "de", "Kontakt"},
		{"de-CH", "de", "Kontakt"},
		{"pt", "pt", "Contato (pt)"},
		{"pt-BR", "pt-BR", "Contato (pt-BR)"},
		{"pt-br", "pt-BR", "Contato (pt-BR)"},
		{"pt-PT", "pt", "Contato (pt)"},
		{"de-x-formal", "de-x-formal", "Kontakt (Sie)"},
		{"de-AT-x-formal", "de", "Kontakt"},
		{"fr", "", "Contact us"},
		{"en-US", "", "Contact us"},
		{"xx", "", "Contact us"},
		{"not a locale!", "", "Contact us"},
		{"de-", "", "Contact us"},
		{"../../etc/passwd", "", "Contact us"},
		{strings.Repeat("a", 300), "", "Contact us"},
	}
	for _, tc := range tests {
		l := components.Localize(i18nSchema(t), tc.locale)
		if l.Locale != tc.wantLocale || l.Schema.Title != tc.wantTitle {
			t.Errorf("Localize(%q): locale %q, title %q; want %q, %q", tc.locale, l.Locale, l.Schema.Title, tc.wantLocale, tc.wantTitle)
		}
		if tc.wantLocale == "" && len(l.Texts) != 0 {
			t.Errorf("Localize(%q).Texts = %v, want none", tc.locale, l.Texts)
		}
		if got := components.Title(i18nSchema(t), tc.locale); got != tc.wantTitle {
			t.Errorf("Title(%q) = %q, want %q", tc.locale, got, tc.wantTitle)
		}
	}
}

func TestLocalizeNoTranslations(t *testing.T) {
	s := allFieldsSchema()
	l := components.Localize(s, "de")
	if l.Locale != "" || !reflect.DeepEqual(l.Schema, s) {
		t.Errorf("Localize of a schema without translations: locale %q, schema changed %v; want base, unchanged", l.Locale, !reflect.DeepEqual(l.Schema, s))
	}
}

func TestLocalizeLeavesOriginal(t *testing.T) {
	for _, locale := range []string{"", "de", "de-AT", "pt-BR", "fr", "!"} {
		s := i18nSchema(t)
		before := deepCopy(t, s)
		if !reflect.DeepEqual(before, s) {
			t.Fatal("deepCopy is not equal to the schema it copies")
		}
		l := components.Localize(s, locale)
		if !reflect.DeepEqual(before, s) {
			t.Errorf("Localize(%q) changed the schema it was given", locale)
		}
		if l.Schema == s {
			t.Errorf("Localize(%q) returned the schema itself, want a copy", locale)
		}
		// Changing what Localize translates in the copy leaves the original alone.
		l.Schema.Title = "changed"
		for i := range l.Schema.Fields {
			f := &l.Schema.Fields[i]
			f.Label, f.Placeholder, f.Help = "changed", "changed", "changed"
			for j := range f.Options {
				f.Options[j].Label = "changed"
			}
		}
		for i := range l.Schema.Steps {
			l.Schema.Steps[i].Title = "changed"
		}
		l.Schema.Buttons.Submit = "changed"
		l.Texts["submitted"] = "changed"
		if !reflect.DeepEqual(before, s) {
			t.Errorf("changing Localize(%q).Schema changed the original", locale)
		}
	}
}

func TestTexts(t *testing.T) {
	tests := []struct {
		texts components.Texts
		key   string
		want  string
	}{
		{nil, "submitted", "Thanks, we'll get back to you soon."},
		{components.Texts{}, "submit", "Submit"},
		{components.Texts{"submit": ""}, "submit", "Submit"},
		{components.Texts{"submit": "Senden"}, "submit", "Senden"},
		{components.Texts{"submit": "Senden"}, "next", "Next"},
		{components.Texts{}, "no-such-key", ""},
	}
	for _, tc := range tests {
		if got := tc.texts.T(tc.key); got != tc.want {
			t.Errorf("%v.T(%q) = %q, want %q", tc.texts, tc.key, got, tc.want)
		}
	}
}

// TestLocalizedRender checks that the rendered states use the locale's
// overlay, and its built-in texts.
func TestLocalizedRender(t *testing.T) {
	p := props(i18nSchema(t))
	p.Locale = "de-AT"
	p.State.Errors = map[string]string{"name": "Pflichtfeld."}
	doc := renderDoc(t, components.HubForm(p))
	checks := []struct{ selector, attr, want string }{
		{"form", "lang", "de"},
		{"h2.hubform-title", "", "Kontakt"},
		{`label[for="hubform-acme-contact-name"]`, "", "Ihr Name*"},
		{`input[name="name"]`, "placeholder", "Erika"},
		{`#hubform-acme-contact-name-help`, "", "Vor- und Nachname."},
		{`label[for="hubform-acme-contact-email"]`, "", "Email"},
		{`select option[value=""]`, "", "Pick one"},
		{`select option[value="sales"]`, "", "Vertrieb"},
		{`select option[value="support"]`, "", "Support"},
		{`select option[value="other"]`, "", "Sonstiges"},
		{`[data-hubform-step="about"] legend`, "", "Über Sie"},
		{`[data-hubform-step="details"] legend`, "", "Details"},
		{`[data-hubform-step="about"] [data-hubform-next]`, "", "Weiter"},
		{`[data-hubform-step="about"] [data-hubform-back]`, "", "Back"},
		{`button[type="submit"]`, "", "Senden"},
		{`[data-hubform-errors] > p`, "", "Bitte korrigieren Sie:"},
		{`[data-hubform-errors] a`, "", "Ihr Name: Pflichtfeld."},
	}
	for _, c := range checks {
		s := doc.Find(c.selector)
		got := strings.TrimSpace(s.Text())
		if c.attr != "" {
			got = s.AttrOr(c.attr, "")
		}
		if s.Length() == 0 || got != c.want {
			t.Errorf("%s %s = %q (%d found), want %q", c.selector, c.attr, got, s.Length(), c.want)
		}
	}

	// Built-in texts of the other states, and the defaults in the base
	// language.
	empty := props(&hubclient.Schema{I18n: i18nSchema(t).I18n})
	states := []struct {
		name   string
		locale string
		render func(p components.HubFormProps) string
		want   string
	}{
		{"submitted", "de-AT", func(p components.HubFormProps) string { return render(t, components.Submitted(p)) }, "Danke!"},
		{"submitted base", "", func(p components.HubFormProps) string { return render(t, components.Submitted(p)) }, "Thanks, we&#39;ll get back to you soon."},
		{"load error", "de", func(p components.HubFormProps) string { return render(t, components.LoadError(p, "")) }, "Nicht geladen."},
		{"load error base", "fr", func(p components.HubFormProps) string { return render(t, components.LoadError(p, "")) }, "This form could not be loaded. Please try again later."},
		{"load error given", "de", func(p components.HubFormProps) string { return render(t, components.LoadError(p, "Gleich zurück.")) }, "Gleich zurück."},
		{"unconfigured", "de", func(p components.HubFormProps) string { return render(t, components.HubForm(p)) }, "Noch nicht eingerichtet."},
		{"unconfigured base", "", func(p components.HubFormProps) string { return render(t, components.HubForm(p)) }, "This form is not set up yet."},
	}
	for _, st := range states {
		p := empty
		p.Locale = st.locale
		if got := st.render(p); !strings.Contains(got, st.want) {
			t.Errorf("%s in %q: %s\nwant it to contain %q", st.name, st.locale, got, st.want)
		}
	}

	// Without buttons in the schema, the overlay's built-in texts name them.
	noButtons := i18nSchema(t)
	noButtons.Buttons = hubclient.Buttons{}
	tr := noButtons.I18n.Translations["de"]
	tr.Buttons = hubclient.Buttons{}
	tr.Texts = map[string]string{"next": "Vor", "back": "Zurück", "submit": "Abschicken"}
	noButtons.I18n.Translations["de"] = tr
	p = props(noButtons)
	p.Locale = "de"
	doc = renderDoc(t, components.HubForm(p))
	for selector, want := range map[string]string{"[data-hubform-next]": "Vor", "[data-hubform-back]": "Zurück", `button[type="submit"]`: "Abschicken"} {
		if got := doc.Find(selector).First().Text(); got != want {
			t.Errorf("%s = %q, want %q", selector, got, want)
		}
	}
}

// TestSchemalessTexts checks the texts shown before a schema is at hand:
// built in for the page's language, since no overlay can translate them,
// and never mixed into a form whose schema has no translation.
func TestSchemalessTexts(t *testing.T) {
	noSchema := func(locale string) components.HubFormProps {
		p := props(nil)
		p.Locale = locale
		return p
	}
	tests := []struct {
		name, html string
		want       []string
	}{
		{"load error de-AT", render(t, components.LoadError(noSchema("de-AT"), "")), []string{"Dieses Formular konnte nicht geladen werden.", ">Noch einmal versuchen</a>"}},
		{"load error fr", render(t, components.LoadError(noSchema("fr"), "")), []string{"Ce formulaire n’a pas pu être chargé.", ">Réessayer</a>"}},
		{"load error unknown", render(t, components.LoadError(noSchema("xx"), "")), []string{"This form could not be loaded. Please try again later.", ">Try again</a>"}},
		{"loading es", render(t, components.HubForm(noSchema("es"))), []string{"Cargando…", ">Mostrar el formulario</a>"}},
		{"loading base", render(t, components.HubForm(noSchema(""))), []string{"Loading…", ">Show the form</a>"}},
	}
	for _, tc := range tests {
		for _, want := range tc.want {
			if !strings.Contains(tc.html, want) {
				t.Errorf("%s: %s\nwant it to contain %q", tc.name, tc.html, want)
			}
		}
	}
	if got := components.TextsFor(allFieldsSchema(), "de").T("submit"); got != "Submit" {
		t.Errorf("a schema without a German overlay in de: submit is %q, want the base language's", got)
	}
}
