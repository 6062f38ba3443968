package formsource_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/formsource"
)

const secretFile = `{"title": "T", "fields": [], "steps": [],
  "hub": {"captchaSecret": "0xCAPTCHA-KEY",
    "webhooks": [{"url": "https://hooks.example.com/T0/B0/tok3n", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
                 {"url": "https://other.example.com/in\u0026key=abc", "secret": "whsec_ZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZm"}],
    "destinations": [{"url": "https://hooks.slack.com/services/T1/B1/chatt0ken"}]}}`

var fileSecrets = []string{"0xCAPTCHA-KEY", "T0/B0/tok3n", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "key=abc", "ZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZm", "chatt0ken"}

// TestHideSecretsKeepsThemOnTheWayBack hides each secret of a form file,
// and takes the hidden file back with the stored values.
func TestHideSecretsKeepsThemOnTheWayBack(t *testing.T) {
	hidden := formsource.HideSecrets([]byte(secretFile))
	for _, s := range fileSecrets {
		if strings.Contains(string(hidden), s) {
			t.Errorf("hidden file shows %q: %s", s, hidden)
		}
	}
	if !strings.Contains(string(hidden), `"title": "T"`) || strings.Count(string(hidden), "[set, hidden #") != 6 {
		t.Errorf("hidden file: %s", hidden)
	}
	back, err := formsource.KeepSecrets(hidden, []byte(secretFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range fileSecrets {
		if !strings.Contains(string(back), s) && !strings.Contains(string(back), strings.ReplaceAll(s, "&", `\u0026`)) {
			t.Errorf("file posted back lost %q: %s", s, back)
		}
	}
	if _, err := formsource.Parse("acme", "t", back); err != nil {
		t.Errorf("file posted back does not parse: %v", err)
	}
}

// TestHiddenSecretsStayInTheirPlace refuses a mark moved to where its
// secret would be shown or sent elsewhere.
func TestHiddenSecretsStayInTheirPlace(t *testing.T) {
	hidden := string(formsource.HideSecrets([]byte(secretFile)))
	i := strings.Index(hidden, `"[set, hidden #`)
	mark := hidden[i : i+len(`"[set, hidden #00000000]"`)]
	for name, posted := range map[string]string{
		"title":       strings.Replace(hidden, `"title": "T"`, `"title": `+mark, 1),
		"in a string": strings.Replace(hidden, `"title": "T"`, `"title": "x `+strings.Trim(mark, `"`)+`"`, 1),
		"other kind":  strings.Replace(hidden, `"https`, "", 1),
	} {
		if name == "other kind" {
			// The captcha's mark as a webhook's URL.
			j := strings.Index(hidden, `"url": "`) + len(`"url": `)
			end := j + 1 + strings.Index(hidden[j+1:], `"`) + 1
			posted = hidden[:j] + mark + hidden[end:]
			if strings.Count(posted, "[set, hidden #") != 6 || !json.Valid([]byte(posted)) {
				t.Fatalf("the case is not a file of six marks: %s", posted)
			}
		}
		if _, err := formsource.KeepSecrets([]byte(posted), []byte(secretFile)); !errors.Is(err, formsource.ErrHiddenUnknown) {
			t.Errorf("%s: %v, want ErrHiddenUnknown", name, err)
		}
	}
	// A mark that reaches Parse is never taken for a captcha's secret.
	marked := `{"title": "T", "fields": [], "steps": [], "hub": {"captchaSecret": ` + mark + `}}`
	if _, err := formsource.Parse("acme", "t", []byte(marked)); err == nil || !strings.Contains(err.Error(), "hub.captchaSecret") {
		t.Errorf("Parse of a captcha secret that is a mark: %v", err)
	}
	// A value typed in place of a mark replaces the secret.
	typed := strings.Replace(hidden, mark, `"new-key"`, 1)
	back, err := formsource.KeepSecrets([]byte(typed), []byte(secretFile))
	if err != nil || !strings.Contains(string(back), "new-key") || strings.Contains(string(back), "0xCAPTCHA-KEY") {
		t.Errorf("typed secret: %v %s", err, back)
	}
}
