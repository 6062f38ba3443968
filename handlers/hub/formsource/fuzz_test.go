package formsource

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func FuzzParse(f *testing.F) {
	f.Add(readExample(f))
	for _, seed := range []string{
		`{}`,
		`{"fields": [], "steps": [], "hub": null}`,
		`{"fields": [{"name": "c", "type": "radio", "options": ["a", {"value": "b", "x": 1}]}], "steps": [{"id": "s", "fields": ["c"]}]}`,
		`{"fields": [{"name": "_hp", "type": "hidden"}], "x": {"y": [1, 2e3, "\u00e9"]}}`,
		`{"TITLE": "a", "title": "b", "Fields": []}`,
		`{"hub": {"allowedOrigins": ["https://example.com"], "recaptchaMinScore": 0.3}}`,
		`{"i18n": {"translations": {"de": {"texts": {"submitted": "Danke"}}}}}`,
		`{"meta": {"captchaProvider": "recaptcha-v3", "captchaSiteKey": "k"}, "submit": {"a": null}}`,
		`[]`,
		`{"fields": [`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		form, err := Parse("site", "form", data)
		if err != nil {
			if form != nil {
				t.Fatalf("Parse returned a form and the error %v", err)
			}
			return
		}
		var served map[string]json.RawMessage
		if err := json.Unmarshal(form.JSON, &served); err != nil {
			t.Fatalf("Form.JSON is not an object: %v\n%s", err, form.JSON)
		}
		if _, ok := served["hub"]; ok {
			t.Fatalf(`Form.JSON serves "hub": %s`, form.JSON)
		}
		var s hubclient.Schema
		if err := json.Unmarshal(form.JSON, &s); err != nil {
			t.Fatalf("Form.JSON does not decode: %v\n%s", err, form.JSON)
		}
		again, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("decoded Form.JSON does not encode: %v", err)
		}
		if !bytes.Equal(again, form.JSON) {
			t.Fatalf("Form.JSON does not survive a round trip:\n%s\n%s", form.JSON, again)
		}
		// What is served is itself a valid form file.
		if _, err := Parse("site", "form", form.JSON); err != nil {
			t.Fatalf("Form.JSON does not parse: %v\n%s", err, form.JSON)
		}
	})
}
