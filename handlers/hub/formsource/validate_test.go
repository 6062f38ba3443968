package formsource

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// validSchema returns the example form's schema and settings, which
// Validate accepts.
func validSchema(t *testing.T) (*hubclient.Schema, *hub.Settings) {
	t.Helper()
	form, err := Parse("acme", "contact", readExample(t))
	if err != nil {
		t.Fatal(err)
	}
	// A deep copy through JSON, so that tests can modify it freely.
	var s hubclient.Schema
	if err := json.Unmarshal(form.JSON, &s); err != nil {
		t.Fatal(err)
	}
	settings := form.Settings
	return &s, &settings
}

func TestValidateRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *hubclient.Schema, h *hub.Settings)
		want   string // must appear in the error: the culprit and what is wrong
	}{
		{"empty name", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].Name = ""
		}, "fields[3]: name is empty"},
		{"theme's text unreadable", func(s *hubclient.Schema, h *hub.Settings) {
			s.Theme = &hubclient.Theme{Text: "#9ca3af"}
		}, "theme: text: the text #9ca3af on the background #ffffff has a contrast of 2.53:1; text needs 4.5:1: #6e7788 is the nearest text colour that passes"},
		{"duplicate name", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[1].Name = "name"
		}, `field "name": name is used by more than one field`},
		{"name with space", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].Name = "your message"
			s.Steps[1].Fields[1] = "your message"
		}, `field "your message": name does not match`},
		{"name starts with digit", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].Name = "1st"
			s.Steps[1].Fields[1] = "1st"
		}, `field "1st": name does not match`},
		{"name too long", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].Name = strings.Repeat("m", 65)
			s.Steps[1].Fields[1] = s.Fields[3].Name
		}, `name does not match`},
		{"unknown type", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[1].Type = "emial"
		}, `field "email": type "emial" is not one of text, email`},
		{"empty type", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[1].Type = ""
		}, `field "email": type ""`},
		{"select without options", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Options = nil
		}, `field "topic": a select field needs at least one option`},
		{"radio without options", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type, s.Fields[2].Options = "radio", nil
		}, `field "topic": a radio field needs at least one option`},
		{"checkboxes without options", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type, s.Fields[2].Options = "checkboxes", []hubclient.Option{}
		}, `field "topic": a checkboxes field needs at least one option`},
		{"empty option value", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Options[1].Value = ""
		}, `field "topic": options[1]: value is empty`},
		{"duplicate option value", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Options[1].Value = "sales"
		}, `field "topic": option value "sales" appears more than once`},
		{"multiple on text", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Multiple = true
		}, `field "name": only file and matrix fields may set "multiple"`},
		{"multiple on select", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Multiple = true
		}, `field "topic": only file and matrix fields may set "multiple"`},
		{"multiple on checkboxes", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type, s.Fields[2].Multiple = "checkboxes", true
		}, `field "topic": checkboxes are always multiple`},
		{"required honeypot", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[5].Required = true
		}, `field "_hp": a honeypot field must not be required`},
		{"honeypot of other type", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[5].Name, s.Fields[5].Type = "_hpTrap", "email"
			s.Steps[1].Fields[3] = "_hpTrap"
		}, `field "_hpTrap": a honeypot field must be of type text or hidden, not "email"`},
		{"empty step id", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[1].ID = ""
		}, "steps[1]: id is empty"},
		{"duplicate step id", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[1].ID = "about"
		}, `step "about": id is used by more than one step`},
		{"step names missing field", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[0].Fields = append(s.Steps[0].Fields, "phone")
		}, `step "about": field "phone" does not exist`},
		{"field in two steps", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[1].Fields = append(s.Steps[1].Fields, "email")
		}, `step "details": field "email" is already in step "about"`},
		{"field twice in a step", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[0].Fields = append(s.Steps[0].Fields, "name")
		}, `step "about": field "name" is listed twice`},
		{"field in no step", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[1].Fields = s.Steps[1].Fields[:3]
		}, `field "_hp": not in any step`},
		{"unknown captcha provider", func(s *hubclient.Schema, h *hub.Settings) {
			s.Meta.CaptchaProvider = "hcaptcha"
		}, `meta.captchaProvider: "hcaptcha" is not "turnstile" or "recaptcha-v3"`},
		{"captcha without site key", func(s *hubclient.Schema, h *hub.Settings) {
			s.Meta.CaptchaProvider, s.Meta.CaptchaSiteKey = "recaptcha-v3", ""
		}, `meta.captchaSiteKey: required when meta.captchaProvider is "recaptcha-v3"`},
		{"bad locale", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["deutsch!"] = hubclient.Translation{}
		}, `i18n.translations["deutsch!"]: locale is not a BCP 47 language tag`},
		{"translation of missing field", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["de"].Fields["nmae"] = hubclient.FieldTranslation{Label: "Name"}
		}, `i18n.translations["de"].fields["nmae"]: no such field`},
		{"translation of missing option", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["de"].Fields["topic"].Options["press"] = "Presse"
		}, `i18n.translations["de"].fields["topic"].options["press"]: field has no such option`},
		{"translation of missing step", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["de"].Steps["contact"] = hubclient.StepTranslation{Title: "Kontakt"}
		}, `i18n.translations["de"].steps["contact"]: no such step`},
		{"condition on unknown field", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].VisibleIf = json.RawMessage(`{"==":[{"var":"topc"},"sales"]}`)
		}, `field "message": visibleIf: refers to unknown field "topc"`},
		{"condition that does not parse", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].RequiredIf = json.RawMessage(`{"reduce":[[1],{"var":"x"},0]}`)
		}, `field "message": requiredIf: operator "reduce" is not supported`},
		{"step condition on its own field", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps[1].VisibleIf = json.RawMessage(`{"var":"topic"}`)
		}, `field "topic": visibleIf depends on itself`},
		{"bad pattern", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Pattern = "[a-"
		}, `field "name": pattern is not an RE2 expression`},
		{"minLength on a select", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].MinLength = 2
		}, `field "topic": minLength applies only to text`},
		{"min on text", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Min = "3"
		}, `field "name": min applies only to number, date, slider, time, datetime and scale fields`},
		{"time bound not a time", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Max = "time", "25:00"
		}, `field "name": max "25:00" is not a time (HH:MM)`},
		{"datetime min after max", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min, s.Fields[0].Max = "datetime", "2026-01-02T09:00", "2026-01-01T17:00"
		}, `field "name": min 2026-01-02T09:00 is after max 2026-01-01T17:00`},
		{"time step in part minutes", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Step = "time", 0.5
		}, `field "name": step of a time is a whole number of minutes`},
		{"slider without ends", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min = "slider", "0"
		}, `field "name": a slider needs min and max`},
		{"rating of two stars", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Max = "rating", "2"
		}, `field "name": max of a rating is a whole number of stars from 3 to 10`},
		{"rating with min", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min = "rating", "1"
		}, `field "name": min applies only to`},
		{"scale from 2", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min = "scale", "2"
		}, `field "name": min of a scale is 0 or 1`},
		{"scale to 11", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Max = "scale", "11"
		}, `field "name": max of a scale is a whole number from 2 to 10`},
		{"heading without text", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Required = "heading", false
		}, `field "name": a heading needs a text`},
		{"required paragraph", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Text, s.Fields[0].Required = "paragraph", "Hello", true
		}, `field "name": a paragraph takes no value: it cannot be required or prefilled`},
		{"image from a script", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Required, s.Fields[0].Src = "image", false, "javascript:alert(1)"
		}, `field "name": src is the image's http or https address`},
		{"picture of a select's option", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Options[0].Image = "https://example.com/a.png"
		}, `field "topic": options[0]: only the options of radio and checkboxes fields show pictures`},
		{"picture from a script", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type, s.Fields[2].Options[0].Image = "radio", "javascript:alert(1)"
		}, `field "topic": options[0]: image is the picture's http or https address`},
		{"alt without a picture", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type, s.Fields[2].Options[0].Alt = "radio", "A cat"
		}, `field "topic": options[0]: alt describes an image, and there is none`},
		{"text on a text field", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Text = "Hello"
		}, `field "name": text applies only to heading and paragraph fields`},
		{"end label on a rating", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].MinLabel = "rating", "Bad"
		}, `field "name": minLabel applies only to scale and nps fields`},
		{"maxItems on one file", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[4].Multiple, s.Fields[4].MaxItems = false, 2
		}, `field "files": maxItems applies only to checkboxes, group and multiple file fields`},
		{"min after max", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min, s.Fields[0].Max = "date", "2026-02-01", "2026-01-01"
		}, `field "name": min 2026-02-01 is after max 2026-01-01`},
		{"date bound not a date", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Type, s.Fields[0].Min = "date", "5"
		}, `field "name": min "5" is not a date`},
		{"minLength over maxLength", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].MinLength, s.Fields[0].MaxLength = 5, 3
		}, `field "name": minLength 5 is more than maxLength 3`},
		{"message of unknown rule", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].Messages = map[string]string{"minLenght": "x"}
		}, `field "name": messages["minLenght"]: not one of`},
		{"translated message of unknown rule", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["de"].Fields["topic"] = hubclient.FieldTranslation{Messages: map[string]string{"nope": "x"}}
		}, `i18n.translations["de"].fields["topic"].messages["nope"]: not one of`},
		{"condition on a honeypot", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[5].VisibleIf = json.RawMessage(`{"var":"name"}`)
		}, `field "_hp": a honeypot field takes no visibleIf`},
		{"negative max file size", func(s *hubclient.Schema, h *hub.Settings) {
			h.MaxFileSize = -1
		}, "hub.maxFileSize: -1 is negative"},
		{"negative max files", func(s *hubclient.Schema, h *hub.Settings) {
			h.MaxFiles = -2
		}, "hub.maxFiles: -2 is negative"},
		{"negative retention", func(s *hubclient.Schema, h *hub.Settings) {
			h.RetentionDays = -1
		}, "hub.retentionDays: -1 is not between 0 (keep) and 36500"},
		{"retention past a century", func(s *hubclient.Schema, h *hub.Settings) {
			h.RetentionDays = 36501
		}, "hub.retentionDays: 36501 is not between 0 (keep) and 36500"},
		{"min score above 1", func(s *hubclient.Schema, h *hub.Settings) {
			h.RecaptchaMinScore = 1.5
		}, "hub.recaptchaMinScore: 1.5 is not between 0 and 1"},
		{"min score negative", func(s *hubclient.Schema, h *hub.Settings) {
			h.RecaptchaMinScore = -0.1
		}, "hub.recaptchaMinScore: -0.1"},
		{"min score NaN", func(s *hubclient.Schema, h *hub.Settings) {
			h.RecaptchaMinScore = math.NaN()
		}, "hub.recaptchaMinScore: NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			tt.change(s, h)
			err := Validate(s, *h)
			if err == nil {
				t.Fatal("Validate accepted the schema")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nlacks %q", err, tt.want)
			}
		})
	}
}

func TestValidateMediaTypes(t *testing.T) {
	tests := []struct {
		typ string
		ok  bool
	}{
		{"application/pdf", true},
		{"image/*", true},
		{"application/vnd.openxmlformats-officedocument.wordprocessingml.document", true},
		{"image/svg+xml", true},
		{"*/*", false},
		{"image", false},
		{"image/", false},
		{"/png", false},
		{".pdf", false},
		{"image/png; q=1", false},
		{"image/png/x", false},
		{"image/pn*", false},
		{" image/png", false},
		{"", false},
	}
	for _, tt := range tests {
		s, h := validSchema(t)
		h.AllowedTypes = []string{"text/plain", tt.typ}
		err := Validate(s, *h)
		if tt.ok && err != nil {
			t.Errorf("%q refused: %v", tt.typ, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "hub.allowedTypes[1]")) {
			t.Errorf("%q: error %v, want one naming hub.allowedTypes[1]", tt.typ, err)
		}
	}
}

func TestValidateOrigins(t *testing.T) {
	tests := []struct {
		origin string
		ok     bool
	}{
		{"https://example.com", true},
		{"http://localhost:8080", true},
		{"https://sub.example.co.uk", true},
		{"http://127.0.0.1:3000", true},
		{"http://[::1]:3000", true},
		{"https://xn--mnchen-3ya.de", true},
		{"https://example.com/", false},
		{"https://example.com/form", false},
		{"https://example.com?x=1", false},
		{"https://example.com#x", false},
		{"https://user@example.com", false},
		{"https://Example.com", false},
		{"HTTPS://example.com", false},
		{"https://example.com:443", false},
		{"http://example.com:80", false},
		{"https://example.com:", false},
		{"https://example.com:99999", false},
		{"https://example.com:0080", false},
		{"https://*.example.com", false},
		{"https://münchen.de", false},
		{"ftp://example.com", false},
		{"example.com", false},
		{"//example.com", false},
		{"https://", false},
		{"null", false},
		{"*", false},
		{"", false},
	}
	for _, tt := range tests {
		s, h := validSchema(t)
		h.AllowedOrigins = []string{"https://example.org", tt.origin}
		err := Validate(s, *h)
		if tt.ok && err != nil {
			t.Errorf("%q refused: %v", tt.origin, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "hub.allowedOrigins[1]")) {
			t.Errorf("%q: error %v, want one naming hub.allowedOrigins[1]", tt.origin, err)
		}
		// The sites that may frame the form's page are origins alike.
		s, h = validSchema(t)
		h.EmbedOrigins = []string{"https://example.org", tt.origin}
		err = Validate(s, *h)
		if tt.ok && err != nil {
			t.Errorf("embed %q refused: %v", tt.origin, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "hub.embedOrigins[1]")) {
			t.Errorf("embed %q: error %v, want one naming hub.embedOrigins[1]", tt.origin, err)
		}
	}
}

func TestValidateAccepts(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *hubclient.Schema, h *hub.Settings)
	}{
		{"example", func(s *hubclient.Schema, h *hub.Settings) {}},
		{"theme", func(s *hubclient.Schema, h *hub.Settings) {
			s.Theme = &hubclient.Theme{Accent: "#7c3aed", Background: "#fffbeb", Radius: "large", Dark: &hubclient.ThemeColors{Accent: "#c4b5fd"}}
		}},
		{"no fields, no steps", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields, s.Steps, s.I18n = nil, nil, hubclient.I18n{}
		}},
		{"fields, no steps", func(s *hubclient.Schema, h *hub.Settings) {
			s.Steps = nil
			delete(s.I18n.Translations["de"].Steps, "about")
		}},
		{"hidden field in no step", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields = append(s.Fields, hubclient.Field{Name: "source", Type: "hidden"})
		}},
		{"hidden honeypot in no step", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields = append(s.Fields, hubclient.Field{Name: "_hp2", Type: "hidden"})
		}},
		{"recaptcha", func(s *hubclient.Schema, h *hub.Settings) {
			s.Meta.CaptchaProvider = "recaptcha-v3"
			h.RecaptchaMinScore, h.RecaptchaAction = 0.7, "contact"
		}},
		{"no captcha", func(s *hubclient.Schema, h *hub.Settings) {
			s.Meta = hubclient.Meta{}
		}},
		{"locales", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations["pt-BR"] = hubclient.Translation{}
			s.I18n.Translations["zh-Hant"] = hubclient.Translation{}
		}},
		{"zero settings", func(s *hubclient.Schema, h *hub.Settings) {
			*h = hub.Settings{}
		}},
		{"score bounds", func(s *hubclient.Schema, h *hub.Settings) {
			h.RecaptchaMinScore = 1
		}},
		{"rules and conditions", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[0].MinLength, s.Fields[0].MaxLength, s.Fields[0].Pattern = 2, 80, `\p{L}[\p{L} .'-]*`
			s.Fields[0].Messages = map[string]string{"pattern": "Letters, please."}
			s.Fields[3].VisibleIf = json.RawMessage(`{"in":[{"var":"topic"},["sales","support"]]}`)
			s.Fields[3].RequiredIf = json.RawMessage(`{"==":[{"var":"topic"},"support"]}`)
			s.Fields[4].MaxItems = 3
			s.Steps[1].VisibleIf = json.RawMessage(`{"!!":{"var":"email"}}`)
			s.Fields = append(s.Fields, hubclient.Field{Name: "when", Type: "date", Min: "2026-01-01", Max: "2026-12-31", Step: 7},
				hubclient.Field{Name: "count", Type: "number", Min: "1", Max: "10", Step: 0.5})
			s.Steps[1].Fields = append(s.Steps[1].Fields, "when", "count")
		}},
		{"name of 64 characters", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[3].Name = "m" + strings.Repeat("-", 63)
			s.Steps[1].Fields[1] = s.Fields[3].Name
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			tt.change(s, h)
			if err := Validate(s, *h); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	s, h := validSchema(t)
	s.Fields[0].Type = "nope"
	s.Steps[0].ID = "" // also leaves the translation of step "about" dangling
	s.Meta.CaptchaProvider = "other"
	h.MaxFiles = -1
	err := Validate(s, *h)
	if err == nil {
		t.Fatal("Validate accepted the schema")
	}
	unwrapped, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("error %T is not joined", err)
	}
	if n := len(unwrapped.Unwrap()); n != 5 {
		t.Errorf("got %d problems, want 5:\n%v", n, err)
	}
	if err := Validate(nil, hub.Settings{}); err == nil {
		t.Error("Validate(nil) accepted")
	}
}

// TestValidatePaths checks that each problem carries the JSON path of the
// member it is about.
func TestValidatePaths(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *hubclient.Schema, h *hub.Settings)
		want   string
	}{
		{"empty name", func(s *hubclient.Schema, h *hub.Settings) { s.Fields[3].Name = "" }, "fields[3].name"},
		{"bad type", func(s *hubclient.Schema, h *hub.Settings) { s.Fields[1].Type = "emial" }, "fields[1].type"},
		{"empty option", func(s *hubclient.Schema, h *hub.Settings) {
			s.Fields[2].Type = hubclient.FieldSelect
			s.Fields[2].Options = []hubclient.Option{{Value: "a"}, {Value: ""}}
		}, "fields[2].options[1].value"},
		{"step id", func(s *hubclient.Schema, h *hub.Settings) { s.Steps[1].ID = "" }, "steps[1].id"},
		{"step field", func(s *hubclient.Schema, h *hub.Settings) { s.Steps[0].Fields[0] = "nope" }, "steps[0].fields[0]"},
		{"site key", func(s *hubclient.Schema, h *hub.Settings) {
			s.Meta.CaptchaProvider, s.Meta.CaptchaSiteKey = hubclient.CaptchaTurnstile, ""
		}, "meta.captchaSiteKey"},
		{"origin", func(s *hubclient.Schema, h *hub.Settings) {
			h.AllowedOrigins = []string{"https://ok.example", "https://x.example/"}
		}, "hub.allowedOrigins[1]"},
		{"webhook", func(s *hubclient.Schema, h *hub.Settings) {
			h.Webhooks = []hub.Webhook{{URL: "ftp://x", Secret: "whsec_" + strings.Repeat("A", 32)}}
		}, "hub.webhooks[0].url"},
		{"translation", func(s *hubclient.Schema, h *hub.Settings) {
			s.I18n.Translations = map[string]hubclient.Translation{"de": {Steps: map[string]hubclient.StepTranslation{"nope": {Title: "x"}}}}
		}, `i18n.translations["de"].steps["nope"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			tt.change(s, h)
			var paths []string
			for _, p := range Problems(Validate(s, *h)) {
				paths = append(paths, p.Path)
			}
			if !slices.Contains(paths, tt.want) {
				t.Errorf("paths %q, want %q among them", paths, tt.want)
			}
		})
	}
}

func TestParseProblemPaths(t *testing.T) {
	_, err := Parse("acme", "contact", []byte(`{"fields":[],"steps":[],"hub":{"nope":1}}`))
	ps := Problems(err)
	if len(ps) != 1 || ps[0].Path != "hub" || !strings.Contains(ps[0].Error(), "nope") {
		t.Errorf("problems %+v, want one at hub naming the unknown member", ps)
	}
}

// TestValidateComposite: a matrix needs rows and columns of their own, an
// address ISO 3166-1 countries, and no other type takes their members.
func TestValidateComposite(t *testing.T) {
	matrix := func() hubclient.Field {
		return hubclient.Field{Name: "grid", Type: hubclient.FieldMatrix, Label: "Rate",
			Rows: []hubclient.Option{{Value: "speed"}, {Value: "care"}}, Columns: []hubclient.Option{{Value: "bad"}, {Value: "good"}}}
	}
	address := func() hubclient.Field {
		return hubclient.Field{Name: "ship", Type: hubclient.FieldAddress, Label: "Address", Required: true, Countries: []string{"FR", "DE"}}
	}
	with := func(s *hubclient.Schema, fields ...hubclient.Field) {
		for _, f := range fields {
			s.Fields = append(s.Fields, f)
			s.Steps[1].Fields = append(s.Steps[1].Fields, f.Name)
		}
	}
	tests := []struct {
		name   string
		change func(s *hubclient.Schema)
		want   string // "" when accepted
	}{
		{"a matrix and an address", func(s *hubclient.Schema) {
			m := matrix()
			m.Multiple = true
			s.I18n.Translations["de"].Fields["grid"] = hubclient.FieldTranslation{Rows: map[string]string{"speed": "Tempo"}, Columns: map[string]string{"good": "Gut"}}
			with(s, m, address())
			s.Fields[3].VisibleIf = json.RawMessage(`{"and": [{"==": [{"var": "ship.country"}, "FR"]}, {"==": [{"var": "grid.care"}, "bad"]}]}`)
		}, ""},
		{"a matrix without rows", func(s *hubclient.Schema) {
			m := matrix()
			m.Rows = nil
			with(s, m)
		}, `field "grid": a matrix needs at least one of its rows`},
		{"a column twice", func(s *hubclient.Schema) {
			m := matrix()
			m.Columns = append(m.Columns, hubclient.Option{Value: "bad"})
			with(s, m)
		}, `field "grid": columns value "bad" appears more than once`},
		{"a row with a dot", func(s *hubclient.Schema) {
			m := matrix()
			m.Rows[0].Value = "a.b"
			with(s, m)
		}, `field "grid": rows[0]: value "a.b" holds a dot`},
		{"rows on a select", func(s *hubclient.Schema) {
			s.Fields[2].Rows = []hubclient.Option{{Value: "x"}}
		}, `field "topic": rows apply only to matrix fields`},
		{"a country not ISO", func(s *hubclient.Schema) {
			a := address()
			a.Countries = []string{"FR", "fr", "XX"}
			with(s, a)
		}, `field "ship": countries[1]: "fr" is not an ISO 3166-1 country code in capitals`},
		{"a country twice", func(s *hubclient.Schema) {
			a := address()
			a.Countries = []string{"FR", "FR"}
			with(s, a)
		}, `field "ship": country "FR" appears more than once`},
		{"countries on a text", func(s *hubclient.Schema) {
			s.Fields[0].Countries = []string{"FR"}
		}, `field "name": countries apply only to address fields`},
		{"a condition on no part", func(s *hubclient.Schema) {
			with(s, address())
			s.Fields[3].VisibleIf = json.RawMessage(`{"==": [{"var": "ship.street"}, "x"]}`)
		}, `refers to unknown field "ship.street"`},
		{"a translated row that is not", func(s *hubclient.Schema) {
			with(s, matrix())
			s.I18n.Translations["de"].Fields["grid"] = hubclient.FieldTranslation{Rows: map[string]string{"price": "Preis"}}
		}, `fields["grid"].rows["price"]: field has no such row`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			tt.change(s)
			err := Validate(s, *h)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error:\n%v\nlacks %q", err, tt.want)
			}
		})
	}
}

// TestValidateGroup: a group needs fields of one control each, named as
// fields are; no other type takes fields or addLabel.
func TestValidateGroup(t *testing.T) {
	group := func() hubclient.Field {
		return hubclient.Field{Name: "team", Type: hubclient.FieldGroup, Label: "Guests", AddLabel: "Add a guest", MinItems: 1, MaxItems: 5,
			Fields: []hubclient.Field{{Name: "guest", Type: hubclient.FieldText, Label: "Name", Required: true, Pattern: "[A-Z].*"}, {Name: "meal", Type: hubclient.FieldSelect, Options: []hubclient.Option{{Value: "veg"}}}}}
	}
	tests := []struct {
		name   string
		change func(g *hubclient.Field)
		want   string // "" when accepted
	}{
		{"a group", func(*hubclient.Field) {}, ""},
		{"no fields", func(g *hubclient.Field) { g.Fields = nil }, `field "team": a group needs at least one field`},
		{"a file in a group", func(g *hubclient.Field) { g.Fields[1] = hubclient.Field{Name: "cv", Type: hubclient.FieldFile} },
			`field "team", field "cv": a group's field is one of text, email`},
		{"a name twice", func(g *hubclient.Field) { g.Fields[1].Name = "guest" }, `field "guest": name is used by more than one field of the group`},
		{"a name with a dot", func(g *hubclient.Field) { g.Fields[1].Name = "a.b" }, `field "a.b": name does not match`},
		{"a select without options", func(g *hubclient.Field) { g.Fields[1].Options = nil }, `field "meal": a select field needs at least one option`},
		{"a condition in a group", func(g *hubclient.Field) { g.Fields[1].VisibleIf = json.RawMessage(`{"var": "team"}`) }, `a group's field takes no visibleIf`},
		{"too many items", func(g *hubclient.Field) { g.MaxItems = 500 }, `maxItems of a group is at most 50`},
		{"a child's pattern", func(g *hubclient.Field) { g.Fields[0].Pattern = "[" }, `fields "guest": pattern is not an RE2 expression`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			g := group()
			tt.change(&g)
			s.Fields = append(s.Fields, g)
			s.Steps[1].Fields = append(s.Steps[1].Fields, g.Name)
			err := Validate(s, *h)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error:\n%v\nlacks %q", err, tt.want)
			}
		})
	}
	s, h := validSchema(t)
	g := group()
	s.Fields = append(s.Fields, g)
	s.Steps[1].Fields = append(s.Steps[1].Fields, g.Name)
	s.I18n.Translations["de"].Fields["team"] = hubclient.FieldTranslation{AddLabel: "Gast hinzufügen", Fields: map[string]hubclient.FieldTranslation{"guest": {Label: "Gast"}}}
	if err := Validate(s, *h); err != nil {
		t.Errorf("a group translated: %v", err)
	}
	s.I18n.Translations["de"].Fields["team"] = hubclient.FieldTranslation{Fields: map[string]hubclient.FieldTranslation{"age": {Label: "Alter"}}}
	if err := Validate(s, *h); err == nil || !strings.Contains(err.Error(), `fields["team"].fields["age"]: the group has no such field`) {
		t.Errorf("a translated field the group lacks: %v", err)
	}
	s, h = validSchema(t)
	s.Fields[0].AddLabel = "More"
	if err := Validate(s, *h); err == nil || !strings.Contains(err.Error(), "addLabel applies only to group fields") {
		t.Errorf("addLabel on a text: %v", err)
	}
}
