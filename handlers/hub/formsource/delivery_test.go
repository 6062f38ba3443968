package formsource

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
)

// testSecret is a valid webhook secret: the specification's example.
const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func TestValidateDelivery(t *testing.T) {
	tests := []struct {
		name string
		h    hub.Settings
		want string // empty when valid; otherwise in the error
	}{
		{"notify and webhooks", hub.Settings{
			Notify:   &hub.Notify{Email: []string{"owner@example.com", "b@example.org"}, ReplyToField: "email"},
			Webhooks: []hub.Webhook{{URL: "https://example.com/hook", Secret: testSecret}, {URL: "http://127.0.0.1:9000/x?y=1", Secret: testSecret}},
		}, ""},
		{"no addresses", hub.Settings{Notify: &hub.Notify{}}, "hub.notify.email: lists no address"},
		{"display name", hub.Settings{Notify: &hub.Notify{Email: []string{"Owner <owner@example.com>"}}}, "hub.notify.email[0]"},
		{"not an address", hub.Settings{Notify: &hub.Notify{Email: []string{"owner"}}}, "hub.notify.email[0]"},
		{"header break", hub.Settings{Notify: &hub.Notify{Email: []string{"a@example.com\r\nBcc: x@example.com"}}}, "hub.notify.email[0]"},
		{"reply-to missing", hub.Settings{Notify: &hub.Notify{Email: []string{"a@example.com"}, ReplyToField: "mail"}}, `hub.notify.replyToField: field "mail" does not exist`},
		{"reply-to not email", hub.Settings{Notify: &hub.Notify{Email: []string{"a@example.com"}, ReplyToField: "name"}}, `hub.notify.replyToField: field "name" is of type "text"`},
		{"ftp", hub.Settings{Webhooks: []hub.Webhook{{URL: "ftp://example.com/", Secret: testSecret}}}, "hub.webhooks[0].url"},
		{"relative", hub.Settings{Webhooks: []hub.Webhook{{URL: "/hook", Secret: testSecret}}}, "hub.webhooks[0].url"},
		{"password", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://u:pw@example.com/", Secret: testSecret}}}, "hub.webhooks[0].url: carries a user name"},
		{"twice", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://example.com/", Secret: testSecret}, {URL: "https://example.com/", Secret: testSecret}}}, "hub.webhooks[1].url: the URL of an earlier webhook again"},
		{"no prefix", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://example.com/", Secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}}, `hub.webhooks[0].secret: not "whsec_"`},
		{"not base64", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://example.com/", Secret: "whsec_not base64!"}}}, "hub.webhooks[0].secret: the part after"},
		{"short key", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://example.com/", Secret: "whsec_c2hvcnQ="}}}, "hub.webhooks[0].secret: the key is 5 bytes long"},
		{"empty secret", hub.Settings{Webhooks: []hub.Webhook{{URL: "https://example.com/"}}}, "hub.webhooks[0].secret"},
		{"chats", hub.Settings{Destinations: []hub.Destination{
			{URL: "https://hooks.slack.com/services/T0/B0/MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
			{URL: "https://discord.com/api/webhooks/1/tok"},
			{Kind: "teams", URL: "https://proxy.example.com/teams"},
		}}, ""},
		{"chat of another address", hub.Settings{Destinations: []hub.Destination{{URL: "https://example.com/MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}}, `hub.destinations[0]: the URL is not the address of a Slack`},
		{"chat of another kind", hub.Settings{Destinations: []hub.Destination{{Kind: "irc", URL: "https://hooks.slack.com/services/T0/B0/x"}}}, `hub.destinations[0].kind: the kind "irc" is none of "slack"`},
		{"chat not https", hub.Settings{Destinations: []hub.Destination{{Kind: "slack", URL: "http://hooks.slack.com/services/T0/B0/MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}}, "hub.destinations[0].url: not an absolute https URL"},
		{"chat twice", hub.Settings{Destinations: []hub.Destination{{URL: "https://discord.com/api/webhooks/1/tok"}, {URL: "https://discord.com/api/webhooks/1/tok"}}}, "hub.destinations[1].url: the URL of an earlier destination again"},
		{"eleven chats", hub.Settings{Destinations: elevenChats()}, "hub.destinations: 11 chats, at most 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := validSchema(t)
			err := Validate(s, tt.h)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate: %v, want an error containing %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") {
				t.Errorf("the error repeats the secret: %v", err)
			}
		})
	}
}

// TestParseKeepsDeliveryPrivate checks that delivery settings are read and
// never served.
func TestParseKeepsDeliveryPrivate(t *testing.T) {
	data := bytes.Replace(readExample(t), []byte(`"hub": {`), []byte(`"hub": {
		"notify": {"email": ["owner@example.com"], "replyToField": "email"},
		"webhooks": [{"url": "https://example.com/hook", "secret": "`+testSecret+`"}],`), 1)
	if bytes.Equal(data, readExample(t)) {
		t.Fatal(`the example has no "hub" member to add to`)
	}
	form, err := Parse("acme", "contact", data)
	if err != nil {
		t.Fatal(err)
	}
	if n := form.Settings.Notify; n == nil || len(n.Email) != 1 || n.Email[0] != "owner@example.com" || n.ReplyToField != "email" {
		t.Errorf("Notify = %+v", n)
	}
	if w := form.Settings.Webhooks; len(w) != 1 || w[0].URL != "https://example.com/hook" || w[0].Secret != testSecret {
		t.Errorf("Webhooks = %+v", w)
	}
	for _, leak := range []string{"whsec_", "owner@example.com", "example.com/hook", "notify", "webhooks"} {
		if bytes.Contains(form.JSON, []byte(leak)) {
			t.Errorf("served schema contains %q", leak)
		}
	}
}

func elevenChats() []hub.Destination {
	var out []hub.Destination
	for i := range 11 {
		out = append(out, hub.Destination{URL: "https://discord.com/api/webhooks/" + strconv.Itoa(i) + "/tok"})
	}
	return out
}
