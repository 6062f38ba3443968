package protocol

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// spamSchema has a field of each kind the content checks tell apart.
const spamSchema = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Name"},
    {"name": "email", "type": "email"},
    {"name": "phone", "type": "tel", "label": "Phone"},
    {"name": "website", "type": "url"},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "topic", "type": "select", "options": ["https://a.example https://b.example https://c.example https://d.example", "casino"]},
    {"name": "ref", "type": "hidden"},
    {"name": "age", "type": "number"}
  ],
  "steps": [{"id": "main", "fields": ["name", "email", "phone", "website", "message", "topic", "ref", "age"]}]
}`

// spamForm returns a form of spamSchema with the given settings and
// translations ("ru", "ja").
func spamForm(t testing.TB, settings hub.Settings, locales ...string) *hub.Form {
	t.Helper()
	var schema hubclient.Schema
	if err := json.Unmarshal([]byte(spamSchema), &schema); err != nil {
		t.Fatal(err)
	}
	for _, l := range locales {
		if schema.I18n.Translations == nil {
			schema.I18n.Translations = map[string]hubclient.Translation{}
		}
		schema.I18n.Translations[l] = hubclient.Translation{Title: "…"}
	}
	return &hub.Form{Site: "acme", Slug: "contact", Schema: &schema, Settings: settings}
}

func ptr[T any](v T) *T { return &v }

// reasons returns the reasons of a submission of payload with timing to a
// form with settings and translations.
func reasons(t testing.TB, settings hub.Settings, locales []string, timing *hubclient.Timing, payload map[string]any) []string {
	var s Server
	return s.spamReasons(spamForm(t, settings, locales...), hubclient.SubmitRequest{Payload: payload, Timing: timing})
}

func TestSpamTimeTrap(t *testing.T) {
	valid := func(secs float64) *hubclient.Timing {
		return &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: secs}
	}
	tests := []struct {
		name   string
		min    *float64
		timing *hubclient.Timing
		want   string // "" for none
	}{
		{"client does not say", nil, nil, ""},
		{"stamp missing", nil, &hubclient.Timing{Stamp: hubclient.StampMissing}, "sent without the time stamp of the page that showed the form"},
		{"stamp invalid", nil, &hubclient.Timing{Stamp: hubclient.StampInvalid}, "sent with a time stamp the page that showed the form did not sign"},
		{"stamp of no known kind", nil, &hubclient.Timing{Stamp: "forged", Seconds: 60}, "sent with a time stamp the page that showed the form did not sign"},
		{"sooner than the default", nil, valid(0.4), "sent 0.4 s after the form was shown (the form's minimum is 2 s)"},
		{"at the default", nil, valid(2), ""},
		{"a person's time", nil, valid(95.25), ""},
		{"sooner than the form's minimum", ptr(7.5), valid(7), "sent 7 s after the form was shown (the form's minimum is 7.5 s)"},
		{"at the form's minimum", ptr(7.5), valid(7.5), ""},
		{"trap off, fast", ptr(0.0), valid(0.1), ""},
		{"trap off, stamp missing", ptr(0.0), &hubclient.Timing{Stamp: hubclient.StampMissing}, ""},
		{"trap off, stamp invalid", ptr(0.0), &hubclient.Timing{Stamp: hubclient.StampInvalid}, ""},
		{"a day exactly", nil, valid(86400), ""},
		{"older than a day", nil, valid(90000), "sent 25 hours after the form was shown (at most a day is allowed)"},
		{"days old", nil, valid(3*86400 + 5), "sent 3 days after the form was shown (at most a day is allowed)"},
		{"from the future", nil, valid(-3), "sent with a time stamp from the future"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reasons(t, hub.Settings{MinSeconds: tt.min}, nil, tt.timing, map[string]any{"name": "Jane"})
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("reasons = %q, want %q", got, want)
			}
		})
	}
}

// TestSpamContent checks each content check on, off, and at its
// threshold, and the words of its reason.
func TestSpamContent(t *testing.T) {
	fourLinks := "see https://a.example, http://b.example, www.c.example and HTTPS://D.EXAMPLE"
	threeLinks := "see https://www.a.example/x, http://b.example and www.c.example"
	cyrillic := "Здравствуйте, предлагаем продвижение вашего сайта"
	tests := []struct {
		name     string
		settings hub.Settings
		locales  []string
		payload  map[string]any
		want     []string
	}{
		{"a person's message", hub.Settings{}, nil, map[string]any{
			"name": "Zoë Müller", "email": "zoe@www.example.com", "phone": "+49 30 1234",
			"message": "Hello, could you call me back? Mein Büro: www.example.de (ça va). Thanks, www-team", "age": 42.0,
		}, nil},

		// Links.
		{"links at the most", hub.Settings{}, nil, map[string]any{"message": threeLinks}, nil},
		{"links over the most", hub.Settings{}, nil, map[string]any{"message": fourLinks}, []string{"4 links (at most 3)"}},
		{"links counted across values", hub.Settings{}, nil, map[string]any{"message": threeLinks, "name": "x www.spam.example"}, []string{
			"a link in “Name”, a field not meant for one", "4 links (at most 3)"}},
		{"the URL field's address is not counted", hub.Settings{}, nil, map[string]any{"message": threeLinks, "website": "https://www.example.com"}, nil},
		{"options and hidden values are not counted", hub.Settings{}, nil, map[string]any{
			"topic": "https://a.example https://b.example https://c.example https://d.example", "ref": fourLinks}, nil},
		{"maxLinks lowered", hub.Settings{Spam: hub.SpamChecks{MaxLinks: ptr(1)}}, nil, map[string]any{"message": "https://a.example www.b.example"}, []string{"2 links (at most 1)"}},
		{"maxLinks at its value", hub.Settings{Spam: hub.SpamChecks{MaxLinks: ptr(2)}}, nil, map[string]any{"message": "https://a.example www.b.example"}, nil},
		{"maxLinks zero", hub.Settings{Spam: hub.SpamChecks{MaxLinks: ptr(0)}}, nil, map[string]any{"message": "www.a.example"}, []string{"1 link (the form allows none)"}},
		{"maxLinks negative", hub.Settings{Spam: hub.SpamChecks{MaxLinks: ptr(-1)}}, nil, map[string]any{"message": fourLinks + fourLinks}, nil},

		// Links in fields not meant for one.
		{"link in a text field", hub.Settings{}, nil, map[string]any{"name": "Best deals www.deals.example"}, []string{"a link in “Name”, a field not meant for one"}},
		{"link in a tel field", hub.Settings{}, nil, map[string]any{"phone": "http://call.example"}, []string{"a link in “Phone”, a field not meant for one"}},
		{"link in an email field, named by its name", hub.Settings{}, nil, map[string]any{"email": "https://x.example"}, []string{"a link in “email”, a field not meant for one"}},
		{"link in a textarea", hub.Settings{}, nil, map[string]any{"message": "www.example.com"}, nil},
		{"links in text fields allowed", hub.Settings{Spam: hub.SpamChecks{LinksInTextFields: ptr(false)}}, nil, map[string]any{"name": "www.deals.example"}, nil},
		{"links in text fields on", hub.Settings{Spam: hub.SpamChecks{LinksInTextFields: ptr(true)}}, nil, map[string]any{"name": "www.deals.example"}, []string{"a link in “Name”, a field not meant for one"}},

		// Scripts.
		{"Cyrillic on a form in English", hub.Settings{}, nil, map[string]any{"message": cyrillic}, []string{"text in Cyrillic script, which none of the form's languages use"}},
		{"Cyrillic on a form in Russian", hub.Settings{}, []string{"ru"}, map[string]any{"message": cyrillic}, nil},
		{"Cyrillic on a form in Ukrainian, by region", hub.Settings{}, []string{"de", "uk-UA"}, map[string]any{"message": cyrillic}, nil},
		{"Cyrillic on a form in German", hub.Settings{}, []string{"de"}, map[string]any{"message": cyrillic}, []string{"text in Cyrillic script, which none of the form's languages use"}},
		{"a foreign name in a Latin sentence", hub.Settings{}, nil, map[string]any{"message": "My name is Иван Петров and I would like a quote for your product"}, nil},
		{"a handful of foreign letters at most", hub.Settings{}, nil, map[string]any{"name": "Иван"}, nil},
		{"a handful of foreign letters", hub.Settings{}, nil, map[string]any{"name": "Иванов"}, []string{"text in Cyrillic script, which none of the form's languages use"}},
		{"half foreign is not most", hub.Settings{}, nil, map[string]any{"message": "abcdefgh абвгдежз"}, nil},
		{"Greek", hub.Settings{}, nil, map[string]any{"message": "Καλησπέρα σας, προσφέρουμε υπηρεσίες"}, []string{"text in Greek script, which none of the form's languages use"}},
		{"Greek on a form in Greek", hub.Settings{}, []string{"el"}, map[string]any{"message": "Καλησπέρα σας, προσφέρουμε υπηρεσίες"}, nil},
		{"Chinese on a form in Japanese", hub.Settings{}, []string{"ja"}, map[string]any{"message": "我们提供专业的网站优化服务"}, nil},
		{"Chinese on a form in Korean", hub.Settings{}, []string{"ko"}, map[string]any{"message": "我们提供专业的网站优化服务"}, []string{"text in Chinese characters (Han), which none of the form's languages use"}},
		{"Japanese on a form in Chinese", hub.Settings{}, []string{"zh-Hant"}, map[string]any{"message": "こんにちは、よろしくおねがいします"}, []string{"text in Japanese Hiragana, which none of the form's languages use"}},
		{"Korean on a form in Korean", hub.Settings{}, []string{"ko"}, map[string]any{"message": "안녕하세요 문의드립니다"}, nil},
		{"Arabic on a form in Persian", hub.Settings{}, []string{"fa"}, map[string]any{"message": "مرحبا نحن نقدم خدمات"}, nil},
		{"Hebrew", hub.Settings{}, nil, map[string]any{"message": "שלום אנחנו מציעים שירותים"}, []string{"text in Hebrew script, which none of the form's languages use"}},
		{"Devanagari on a form in Hindi", hub.Settings{}, []string{"hi"}, map[string]any{"message": "नमस्ते हम सेवाएं प्रदान करते हैं"}, nil},
		{"Thai", hub.Settings{}, nil, map[string]any{"message": "สวัสดีครับ เรามีบริการ"}, []string{"text in Thai script, which none of the form's languages use"}},
		{"a script no language maps to", hub.Settings{}, nil, map[string]any{"message": "ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ ᎠᏕᎳ"}, []string{"text in Cherokee script, which none of the form's languages use"}},
		{"a language of Latin script", hub.Settings{}, []string{"fr"}, map[string]any{"message": cyrillic}, []string{"text in Cyrillic script, which none of the form's languages use"}},
		{"scripts reported once", hub.Settings{}, nil, map[string]any{"name": "Иван Петров", "message": cyrillic}, []string{"text in Cyrillic script, which none of the form's languages use"}},
		{"foreign scripts allowed", hub.Settings{Spam: hub.SpamChecks{ForeignScripts: ptr(false)}}, nil, map[string]any{"message": cyrillic}, nil},

		// Phrases.
		{"a built-in phrase, any case and spacing", hub.Settings{}, nil, map[string]any{"message": "We offer SEO \n  Services at low prices"}, []string{"the phrase “seo services”"}},
		{"a built-in phrase before punctuation", hub.Settings{}, nil, map[string]any{"name": "casino!"}, []string{"the phrase “casino”"}},
		{"a built-in phrase within a word", hub.Settings{}, nil, map[string]any{"message": "casinos and onlinecasino"}, nil},
		{"a phrase split by a word", hub.Settings{}, nil, map[string]any{"message": "seo and services"}, nil},
		{"a phrase found twice is named once", hub.Settings{}, nil, map[string]any{"name": "Casino", "message": "casino casino"}, []string{"the phrase “casino”"}},
		{"the form's own phrase", hub.Settings{Spam: hub.SpamChecks{Phrases: []string{"  Cheap   Watches "}}}, nil, map[string]any{"message": "cheap watches here"}, []string{"the phrase “cheap watches”"}},
		{"the form's own phrase in Cyrillic", hub.Settings{Spam: hub.SpamChecks{Phrases: []string{"Распродажа"}}}, []string{"ru"}, map[string]any{"message": "Большая РАСПРОДАЖА."}, []string{"the phrase “распродажа”"}},
		{"built-in phrases off", hub.Settings{Spam: hub.SpamChecks{BuiltinPhrases: ptr(false), Phrases: []string{"rolex"}}}, nil, map[string]any{"message": "casino rolex"}, []string{"the phrase “rolex”"}},
		{"at most five phrases named", hub.Settings{}, nil, map[string]any{"message": "casino backlinks viagra cialis payday loan forex trading passive income"}, []string{
			"the phrase “casino”", "the phrase “backlinks”", "the phrase “viagra”", "the phrase “cialis”", "the phrase “payday loan”"}},
		{"phrases are looked for in typed values only", hub.Settings{}, nil, map[string]any{"topic": "casino", "ref": "casino"}, nil},

		// All off.
		{"checks off", hub.Settings{Spam: hub.SpamChecks{Off: true, Phrases: []string{"rolex"}}}, nil, map[string]any{
			"name": "www.x.example", "message": fourLinks + " rolex casino " + cyrillic}, nil},
		{"every check at once", hub.Settings{}, nil, map[string]any{
			"name": "www.x.example", "message": fourLinks + " casino " + cyrillic + " " + cyrillic}, []string{
			"a link in “Name”, a field not meant for one", "text in Cyrillic script, which none of the form's languages use",
			"the phrase “casino”", "5 links (at most 3)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reasons(t, tt.settings, tt.locales, nil, tt.payload)
			if !slices.Equal(got, tt.want) {
				t.Errorf("reasons = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

// TestSpamTimeAndContent checks that the time trap's reason comes first
// and that turning the content checks off leaves the time trap on.
func TestSpamTimeAndContent(t *testing.T) {
	fast := &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 1}
	got := reasons(t, hub.Settings{}, nil, fast, map[string]any{"name": "casino"})
	want := []string{"sent 1 s after the form was shown (the form's minimum is 2 s)", "the phrase “casino”"}
	if !slices.Equal(got, want) {
		t.Errorf("reasons = %q, want %q", got, want)
	}
	got = reasons(t, hub.Settings{Spam: hub.SpamChecks{Off: true}}, nil, fast, map[string]any{"name": "casino"})
	if !slices.Equal(got, want[:1]) {
		t.Errorf("content checks off: reasons = %q, want %q", got, want[:1])
	}
}

func TestBuiltinPhrases(t *testing.T) {
	var phrases []string
	for _, p := range builtinPhrases.phrases {
		phrases = append(phrases, string(p))
	}
	if len(phrases) < 30 {
		t.Errorf("%d built-in phrases, want a few dozen", len(phrases))
	}
	for _, p := range phrases {
		if p == "" || strings.HasPrefix(p, "#") || p != strings.ToLower(p) || strings.Contains(p, "  ") {
			t.Errorf("built-in phrase %q: want lowered words one space apart, no comments", p)
		}
	}
	if !slices.Contains(phrases, "seo services") || !slices.Contains(phrases, "crypto investment") {
		t.Errorf("built-in phrases %q lack the common ones", phrases)
	}
}

// BenchmarkSpamReasons checks a person's submission to a form with
// translations: what every submission costs.
func BenchmarkSpamReasons(b *testing.B) {
	form := spamForm(b, hub.Settings{Spam: hub.SpamChecks{Phrases: []string{"cheap watches", "rolex"}}}, "de", "fr")
	req := hubclient.SubmitRequest{
		Timing: &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 48.2},
		Payload: map[string]any{
			"name": "Zoë Müller", "email": "zoe@example.com", "phone": "+49 30 123456", "website": "https://example.com",
			"message": strings.Repeat("Hello, I would like to know more about your offer for teams of ten. Could you call me back? ", 6) +
				"More on www.example.com.",
			"topic": "casino", "age": 42.0,
		},
	}
	var s Server
	b.ReportAllocs()
	for b.Loop() {
		if r := s.spamReasons(form, req); r != nil {
			b.Fatalf("reasons %q", r)
		}
	}
}
