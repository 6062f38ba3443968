package formsource

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
)

func readExample(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/contact.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseExample(t *testing.T) {
	form, err := Parse("acme", "contact", readExample(t))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if form.Site != "acme" || form.Slug != "contact" {
		t.Errorf("site, slug = %q, %q; want acme, contact", form.Site, form.Slug)
	}
	s := form.Schema
	if len(s.Fields) != 6 || len(s.Steps) != 2 || !s.Configured() {
		t.Errorf("got %d fields, %d steps; want 6, 2", len(s.Fields), len(s.Steps))
	}
	if s.Meta.CaptchaProvider != "turnstile" || s.I18n.Translations["de"].Buttons.Submit != "Senden" {
		t.Errorf("meta or i18n lost: %+v %+v", s.Meta, s.I18n)
	}
	wantSettings := hub.Settings{
		CaptchaSecret:  "1x0000000000000000000000000000000AA",
		MaxFileSize:    10 << 20,
		MaxFiles:       3,
		AllowedTypes:   []string{"application/pdf", "image/*"},
		AllowedOrigins: []string{"https://example.com", "http://localhost:8080"},
	}
	if !reflect.DeepEqual(form.Settings, wantSettings) {
		t.Errorf("settings = %+v\nwant %+v", form.Settings, wantSettings)
	}
	if _, ok := s.Extra["hub"]; ok {
		t.Error(`Schema.Extra still holds "hub"`)
	}

	var served map[string]json.RawMessage
	if err := json.Unmarshal(form.JSON, &served); err != nil {
		t.Fatalf("Form.JSON: %v", err)
	}
	if _, ok := served["hub"]; ok {
		t.Errorf(`Form.JSON serves "hub": %s`, form.JSON)
	}
	if bytes.Contains(form.JSON, []byte(wantSettings.CaptchaSecret)) {
		t.Errorf("Form.JSON contains the captcha secret: %s", form.JSON)
	}
	for _, member := range []string{"title", "fields", "steps", "buttons", "meta", "i18n", "submit"} {
		if _, ok := served[member]; !ok {
			t.Errorf("Form.JSON lacks %q: %s", member, form.JSON)
		}
	}
	again, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, form.JSON) {
		t.Errorf("Form.JSON is not the encoded schema:\n%s\n%s", form.JSON, again)
	}
}

func TestParseKeepsUnknownMembers(t *testing.T) {
	const file = `{
		"x-top": 1,
		"fields": [{"name": "c", "type": "select", "x-field": true,
			"options": [{"value": "a", "x-option": "o"}, "b"]}],
		"steps": [{"id": "s", "fields": ["c"], "x-step": [1, 2]}],
		"buttons": {"x-buttons": "b"},
		"meta": {"x-meta": null},
		"i18n": {"x-i18n": {}, "translations": {"fr": {"x-tr": "t",
			"fields": {"c": {"x-ft": 1}}, "steps": {"s": {"x-st": 2}}}}},
		"hub": {"maxFiles": 2}
	}`
	form, err := Parse("site", "form", []byte(file))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, member := range []string{"x-top", "x-field", "x-option", "x-step", "x-buttons", "x-meta", "x-i18n", "x-tr", "x-ft", "x-st"} {
		if !bytes.Contains(form.JSON, []byte(`"`+member+`"`)) {
			t.Errorf("Form.JSON lost %q: %s", member, form.JSON)
		}
	}
	if form.Settings.MaxFiles != 2 {
		t.Errorf("MaxFiles = %d, want 2", form.Settings.MaxFiles)
	}
}

func TestParseEmptyIsValid(t *testing.T) {
	for _, file := range []string{`{}`, `{"fields": [], "steps": []}`, `{"fields": null, "hub": null}`, ` {"fields": [{"name": "a", "type": "text"}]}`} {
		form, err := Parse("site", "form", []byte(file))
		if err != nil {
			t.Errorf("Parse(%s): %v", file, err)
			continue
		}
		if !bytes.Contains(form.JSON, []byte(`"steps":[]`)) {
			t.Errorf("Parse(%s).JSON = %s, want steps as []", file, form.JSON)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name       string
		site, slug string
		file       string
		want       []string // each must appear in the error
	}{
		{"array", "s", "f", `[]`, []string{"not a JSON object"}},
		{"null", "s", "f", `null`, []string{"not a JSON object"}},
		{"empty", "s", "f", ``, []string{"not a JSON object"}},
		{"string", "s", "f", `"{}"`, []string{"not a JSON object"}},
		{"syntax", "s", "f", `{"fields": [}`, []string{"schema:"}},
		{"trailing", "s", "f", `{} {}`, []string{"schema:"}},
		{"wrong type", "s", "f", `{"fields": {}}`, []string{"schema:"}},
		{"too large", "s", "f", `{"title": "` + strings.Repeat("x", maxFileSize) + `"}`, []string{"larger than"}},
		{"settings typo", "s", "f", `{"hub": {"maxFileSzie": 1}}`, []string{"hub:", "maxFileSzie"}},
		{"settings type", "s", "f", `{"hub": {"maxFiles": "3"}}`, []string{"hub:", "maxFiles"}},
		{"settings not object", "s", "f", `{"hub": []}`, []string{"hub:"}},
		{"settings spelt Hub", "s", "f", `{"Hub": {"captchaSecret": "x"}}`, []string{`member "Hub"`}},
		{"settings spelt HUB", "s", "f", `{"hub": {}, "HUB": {}}`, []string{`member "HUB"`}},
		{"bad site", "../x", "f", `{}`, []string{`site "../x"`}},
		{"bad slug", "s", "", `{}`, []string{`slug ""`}},
		{"reserved site", "admin", "f", `{}`, []string{`site "admin" is reserved`}},
		{"settings and schema", "s", "f", `{"hub": {"maxFiles": -1, "bogus": 1}, "fields": [{"name": "a", "type": "nope"}]}`,
			[]string{"bogus", `field "a": type "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form, err := Parse(tt.site, tt.slug, []byte(tt.file))
			if err == nil {
				t.Fatalf("Parse succeeded: %s", form.JSON)
			}
			if form != nil {
				t.Errorf("Parse returned a form with the error %v", err)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestInvalidError(t *testing.T) {
	inner := errors.Join(errors.New("first problem"), errors.New("second problem"))
	err := error(&InvalidError{Path: "/forms/acme/contact.json", Err: inner})
	msg := err.Error()
	for _, want := range []string{"/forms/acme/contact.json", "first problem", "second problem"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Error() = %q, lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("Error() = %q spans lines", msg)
	}
	if !errors.Is(err, inner) {
		t.Error("InvalidError does not unwrap to Err")
	}
}

// TestParseHostedPage reads the setting that turns a form's page off: on
// unless it says false.
func TestParseHostedPage(t *testing.T) {
	const form = `{"fields": [{"name": "a", "type": "text"}], "steps": [{"id": "s", "fields": ["a"]}]%s}`
	for _, tt := range []struct {
		hub  string
		want bool
	}{
		{``, true},
		{`, "hub": {"maxFiles": 2}`, true},
		{`, "hub": {"hostedPage": true}`, true},
		{`, "hub": {"hostedPage": false}`, false},
	} {
		f, err := Parse("acme", "contact", []byte(fmt.Sprintf(form, tt.hub)))
		if err != nil {
			t.Fatalf("%s: %v", tt.hub, err)
		}
		if got := f.Settings.Hosted(); got != tt.want {
			t.Errorf("%s: Hosted() = %v, want %v", tt.hub, got, tt.want)
		}
		if bytes.Contains(f.JSON, []byte("hostedPage")) {
			t.Errorf("%s: the schema served holds the setting: %s", tt.hub, f.JSON)
		}
	}
	if _, err := Parse("acme", "contact", []byte(fmt.Sprintf(form, `, "hub": {"hostedPage": "no"}`))); err == nil {
		t.Error(`"hostedPage": "no" parsed`)
	}
}
