package components

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/hubform/hubform/hubclient"
)

// Texts are the built-in texts by key. A schema's translation overlay may
// replace any of them under "texts".
type Texts map[string]string

// DefaultTexts are the built-in texts in English. Placeholders in braces
// are filled in where the text is used.
var DefaultTexts = Texts{
	"loading":           "Loading…",
	"loadFailed":        "This form could not be loaded. Please try again later.",
	"showForm":          "Show the form",
	"retry":             "Try again",
	"unconfigured":      "This form is not set up yet.",
	"submitted":         "Thanks, we'll get back to you soon.",
	"closed":            "This form is closed and no longer takes submissions.",
	"duplicate":         "This was already sent: the form takes one response per person.",
	"submit":            "Submit",
	"next":              "Next",
	"back":              "Back",
	"stepStatus":        "Step {n} of {total}",
	"errorSummary":      "Please correct the following:",
	"submitFailed":      "Your submission could not be sent. Please try again.",
	"checkFields":       "Please correct the marked fields.",
	"uploadFailed":      "A file could not be uploaded. Please try again.",
	"fileRefused":       "A file was not accepted: check its type and size.",
	"hubUnavailable":    "The form cannot be sent right now. Please try again in a moment.",
	"tooMany":           "Too many attempts. Please wait a minute and try again.",
	"quotaReached":      "This form is not taking submissions for now. Please try again later, or write to the site's owner.",
	"storageFull":       "This form cannot store what you sent right now. Nothing was lost on your side: please try again later.",
	"captchaFailed":     "The check that you are human did not pass. Please complete it and send again.",
	"submitRefused":     "The form was not accepted. Please check your entries and try again.",
	"postTooLarge":      "What you sent is too large: at most {max} MiB, files included.",
	"postUnreadable":    "The form could not be read. Please try again.",
	"required":          "This field is required.",
	"requiredMark":      "required",
	"invalidEmail":      "Enter an email address.",
	"invalidURL":        "Enter an address starting with http:// or https://.",
	"invalidNumber":     "Enter a number.",
	"invalidDate":       "Enter a date.",
	"invalidTime":       "Enter a time.",
	"invalidDateTime":   "Enter a date and time.",
	"ratingStar":        "{n} of {max}",
	"npsMin":            "Not likely",
	"npsMax":            "Very likely",
	"invalidTel":        "Enter a telephone number.",
	"invalidChoice":     "Choose one of the options.",
	"tooLong":           "This text is too long.",
	"notText":           "Enter text.",
	"invalidBoolean":    "Tick the box or leave it empty.",
	"duplicateChoice":   "Choose each option once.",
	"invalidRanking":    "Give every option a place of its own.",
	"rankNone":          "–",
	"matrixRows":        "Answer every row.",
	"incompleteAddress": "Enter the street address, the city and the country.",
	"invalidCountry":    "Choose a country from the list.",
	"invalidParts":      "Fill in the parts of this question.",
	"addressLine1":      "Street address",
	"addressLine2":      "Apartment, suite, etc.",
	"addressCity":       "City",
	"addressRegion":     "State, province or region",
	"addressPostalCode": "Postal code",
	"addressCountry":    "Country",
	"signatureDraw":     "Sign here",
	"signatureClear":    "Clear",
	"signatureTyped":    "Type your full name to sign",
	"signatureDrawn":    "Your drawn signature",
	"invalidSignature":  "Sign once, with a drawing of at most 512 KiB.",
	"groupAdd":          "Add another",
	"groupRemove":       "Remove",
	"groupItemTitle":    "Entry {n}",
	"groupItem":         "Entry {n}, {label}: {message}",
	"oneFile":           "Choose only one file.",
	"minLength":         "Enter at least {limit} characters.",
	"maxLength":         "Enter at most {limit} characters.",
	"pattern":           "Enter it in the format asked for.",
	"min":               "Enter {limit} or more.",
	"max":               "Enter {limit} or less.",
	"step":              "Enter a value in steps of {limit}.",
	"minItems":          "Choose at least {limit}.",
	"maxItems":          "Choose at most {limit}.",
	"chooseAgain":       "Please choose your files again.",
	"uploading":         "Uploading {name}",
	"uploaded":          "{name} is uploaded.",
	"uploadCancel":      "Cancel",
	"uploadRetry":       "Try again",
	"uploadRemove":      "Remove",
	"uploadWait":        "Please wait until your files are uploaded.",
	"uploadFallback":    "This file could not be sent on its own: it will go with the form, or try again.",
	"uploadOffline":     "No network: the upload goes on when it is back.",
	"dropFile":          "Drag a file here or click to choose one",
	"dropFiles":         "Drag files here or click to choose them",
	"dropReplace":       "Drag another file here or click to replace it",
	"choose":            "Choose…",
	"honeypot":          "Leave this field empty",
	"saveLater":         "Save and continue later",
	"saveExplain":       "We e-mail you a link to continue where you left off.",
	"saveEmail":         "Your e-mail address",
	"saveSend":          "Send me a link",
	"savedMailed":       "Saved. We e-mailed a link to {email}: open it to continue, on any device, until {date}.",
	"savedLink":         "Saved. Keep this link to continue, on any device, until {date}:",
	"saveNotMailed":     "The link could not be e-mailed.",
	"saveFailed":        "The form could not be saved. Please try again.",
	"draftKept":         "{name}, kept from your saved form",
	"draftKeep":         "Keep",
	"draftGone":         "This saved form is no longer available: it expired or was sent. You can start again below.",
	"rankMove":          "Move {label}",
	"rankHelp":          "Press Space to pick it up, the arrow keys to move it and Space to put it down, or Escape to cancel. Alt with an arrow key moves it at once.",
	"rankLifted":        "{label} picked up, at place {n} of {total}.",
	"rankMoved":         "Moved {label} to place {n} of {total}.",
	"rankDropped":       "{label} put down at place {n} of {total}.",
	"rankCancelled":     "Move cancelled: {label} is back at place {n} of {total}.",
	"revealed":          "Your answers brought up more questions. Answer them, then send the form again:",
	"heldFile":          "{name}, as chosen before",
	"yes":               "Yes",
	"no":                "No",
}

// schemalessTexts are the texts shown before a form's schema is at hand:
// loading, and a schema that could not be fetched. Without a schema there
// is no overlay to translate them, so the most asked-for languages are
// built in. So are the hub's refusals that no form author thinks of
// translating, the closed form and the value already sent (LocalText).
var schemalessTexts = map[string]Texts{
	"de": {
		"loading": "Wird geladen …", "loadFailed": "Dieses Formular konnte nicht geladen werden. Bitte versuchen Sie es später noch einmal.", "showForm": "Formular anzeigen", "retry": "Noch einmal versuchen",
		"closed": "Dieses Formular ist geschlossen und nimmt keine Antworten mehr an.", "duplicate": "Dies wurde bereits gesendet: Das Formular nimmt eine Antwort pro Person an.",
	},
	"es": {
		"loading": "Cargando…", "loadFailed": "No se ha podido cargar este formulario. Vuelva a intentarlo más tarde.", "showForm": "Mostrar el formulario", "retry": "Reintentar",
		"closed": "Este formulario está cerrado y ya no admite respuestas.", "duplicate": "Esto ya se ha enviado: el formulario admite una respuesta por persona.",
	},
	"fr": {
		"loading": "Chargement…", "loadFailed": "Ce formulaire n’a pas pu être chargé. Veuillez réessayer plus tard.", "showForm": "Afficher le formulaire", "retry": "Réessayer",
		"closed": "Ce formulaire est clos et n’accepte plus de réponses.", "duplicate": "Ceci a déjà été envoyé : le formulaire accepte une réponse par personne.",
	},
	"it": {
		"loading": "Caricamento…", "loadFailed": "Non è stato possibile caricare questo modulo. Riprova più tardi.", "showForm": "Mostra il modulo", "retry": "Riprova",
		"closed": "Questo modulo è chiuso e non accetta più risposte.", "duplicate": "Questo è già stato inviato: il modulo accetta una risposta per persona.",
	},
	"nl": {
		"loading": "Laden…", "loadFailed": "Dit formulier kon niet worden geladen. Probeer het later opnieuw.", "showForm": "Formulier tonen", "retry": "Opnieuw proberen",
		"closed": "Dit formulier is gesloten en neemt geen inzendingen meer aan.", "duplicate": "Dit is al verzonden: het formulier neemt één antwoord per persoon aan.",
	},
	"pt": {
		"loading": "A carregar…", "loadFailed": "Não foi possível carregar este formulário. Tente novamente mais tarde.", "showForm": "Mostrar o formulário", "retry": "Tentar novamente",
		"closed": "Este formulário está fechado e já não aceita respostas.", "duplicate": "Isto já foi enviado: o formulário aceita uma resposta por pessoa.",
	},
}

// LocalText returns the built-in text of key for form s in locale: the
// schema's overlay's, else the one built in for the locale's language (the
// languages of the loading state), else English. s may be nil. The closed
// state and the refusal of a value already sent speak this way: a form's
// author rarely translates them, and the visitor reads them on their own.
func LocalText(s *hubclient.Schema, locale, key string) string {
	if s != nil {
		if text := TextsFor(s, locale)[key]; text != "" {
			return text
		}
	}
	return TextsFor(nil, locale).T(key)
}

// TextsFor returns the built-in texts of a form in locale: the schema's
// overlay for the locale when there is a schema, else, before any schema
// is at hand, the texts built in for the locale's language.
func TextsFor(s *hubclient.Schema, locale string) Texts {
	if s != nil {
		if key := matchLocale(s.I18n.Translations, locale); key != "" {
			return Texts(s.I18n.Translations[key].Texts)
		}
		return Texts{}
	}
	if tag, err := language.Parse(locale); err == nil {
		base, _ := tag.Base()
		return schemalessTexts[base.String()]
	}
	return Texts{}
}

// T returns the text of key, falling back to DefaultTexts.
func (t Texts) T(key string) string {
	if s, ok := t[key]; ok && s != "" {
		return s
	}
	return DefaultTexts[key]
}

// Localized is a schema with a locale's overlay applied.
type Localized struct {
	// Schema is a copy of the schema in the locale; the original is left
	// untouched.
	Schema *hubclient.Schema
	// Locale is the translation applied ("de" for a request of "de-AT"),
	// or "" for the base language.
	Locale string
	// Texts are the built-in texts in the locale.
	Texts Texts
}

// Localize applies the best matching translation of s for locale: an exact
// key first, else the closest by language ("de-AT" → "de"). Strings the
// overlay leaves out keep the base language.
func Localize(s *hubclient.Schema, locale string) Localized {
	out := clone(s)
	key := matchLocale(s.I18n.Translations, locale)
	texts := Texts{}
	if key == "" {
		return Localized{Schema: out, Texts: texts}
	}
	tr := s.I18n.Translations[key]
	out.Title = cmp.Or(tr.Title, out.Title)
	out.Description = cmp.Or(tr.Description, out.Description)
	for i := range out.Fields {
		if ft, ok := tr.Fields[out.Fields[i].Name]; ok {
			translateField(&out.Fields[i], ft)
		}
	}
	for i := range out.Steps {
		if st, ok := tr.Steps[out.Steps[i].ID]; ok {
			out.Steps[i].Title = cmp.Or(st.Title, out.Steps[i].Title)
		}
	}
	for i := range out.Endings {
		if et, ok := tr.Endings[out.Endings[i].ID]; ok {
			out.Endings[i].Title = cmp.Or(et.Title, out.Endings[i].Title)
			out.Endings[i].Text = cmp.Or(et.Text, out.Endings[i].Text)
		}
	}
	for i := range out.Calculations {
		out.Calculations[i].Label = cmp.Or(tr.Calculations[out.Calculations[i].Name], out.Calculations[i].Label)
	}
	out.Buttons.Submit = cmp.Or(tr.Buttons.Submit, out.Buttons.Submit)
	out.Buttons.Next = cmp.Or(tr.Buttons.Next, out.Buttons.Next)
	out.Buttons.Back = cmp.Or(tr.Buttons.Back, out.Buttons.Back)
	maps.Copy(texts, tr.Texts)
	return Localized{Schema: out, Locale: key, Texts: texts}
}

// translateField applies a field's translation to f, a clone's: its
// texts, options, a matrix's rows and columns, a group's add button and
// its fields, each by its own translation.
func translateField(f *hubclient.Field, ft hubclient.FieldTranslation) {
	f.Label = cmp.Or(ft.Label, f.Label)
	f.Placeholder = cmp.Or(ft.Placeholder, f.Placeholder)
	f.Help = cmp.Or(ft.Help, f.Help)
	f.MinLabel = cmp.Or(ft.MinLabel, f.MinLabel)
	f.MaxLabel = cmp.Or(ft.MaxLabel, f.MaxLabel)
	f.Text = cmp.Or(ft.Text, f.Text)
	f.Alt = cmp.Or(ft.Alt, f.Alt)
	for j := range f.Options {
		f.Options[j].Label = cmp.Or(ft.Options[f.Options[j].Value], f.Options[j].Label)
	}
	for j := range f.Rows {
		f.Rows[j].Label = cmp.Or(ft.Rows[f.Rows[j].Value], f.Rows[j].Label)
	}
	for j := range f.Columns {
		f.Columns[j].Label = cmp.Or(ft.Columns[f.Columns[j].Value], f.Columns[j].Label)
	}
	if len(ft.Messages) > 0 {
		f.Messages = maps.Clone(f.Messages)
		if f.Messages == nil {
			f.Messages = map[string]string{}
		}
		maps.Copy(f.Messages, ft.Messages)
	}
	f.AddLabel = cmp.Or(ft.AddLabel, f.AddLabel)
	for j := range f.Fields {
		if ct, ok := ft.Fields[f.Fields[j].Name]; ok {
			translateField(&f.Fields[j], ct)
		}
	}
}

// Title returns the schema's title in locale, as HubForm shows it: for a
// page's title. Like HubForm, it translates the schema once per schema
// pointer and locale.
func Title(s *hubclient.Schema, locale string) string {
	return schemaMemo.get(s, locale).l.Schema.Title
}

// matchLocale returns the translation key best matching locale, or "".
func matchLocale(translations map[string]hubclient.Translation, locale string) string {
	if locale == "" || len(translations) == 0 {
		return ""
	}
	for key := range translations {
		if strings.EqualFold(key, locale) {
			return key
		}
	}
	want, err := language.Parse(locale)
	if err != nil {
		return ""
	}
	keys := slices.Sorted(maps.Keys(translations))
	var tags []language.Tag
	var usable []string
	for _, key := range keys {
		if tag, err := language.Parse(key); err == nil {
			tags = append(tags, tag)
			usable = append(usable, key)
		}
	}
	if len(tags) == 0 {
		return ""
	}
	_, index, confidence := language.NewMatcher(tags).Match(want)
	if confidence < language.High {
		return ""
	}
	return usable[index]
}

// clone copies what Localize changes: fields, their options, steps,
// endings and calculations.
func clone(s *hubclient.Schema) *hubclient.Schema {
	out := *s
	out.Endings = slices.Clone(s.Endings)
	out.Calculations = slices.Clone(s.Calculations)
	out.Fields = slices.Clone(s.Fields)
	for i := range out.Fields {
		out.Fields[i].Options = slices.Clone(out.Fields[i].Options)
		out.Fields[i].Rows = slices.Clone(out.Fields[i].Rows)
		out.Fields[i].Columns = slices.Clone(out.Fields[i].Columns)
		out.Fields[i].Fields = slices.Clone(out.Fields[i].Fields)
		for j := range out.Fields[i].Fields {
			out.Fields[i].Fields[j].Options = slices.Clone(out.Fields[i].Fields[j].Options)
		}
	}
	out.Steps = slices.Clone(s.Steps)
	return &out
}
