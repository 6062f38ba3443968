package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub/delivery/chat/chattest"
)

func TestRecognise(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want Kind
	}{
		{"https://hooks.slack.com/services/T000/B000/XXXX", Slack},
		{"https://hooks.slack.com/triggers/T000/1/abc", Slack},
		{"https://discord.com/api/webhooks/123/abc-DEF", Discord},
		{"https://discordapp.com/api/webhooks/123/abc", Discord},
		{"https://canary.discord.com/api/webhooks/123/abc", Discord},
		{"https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=x", Teams},
		{"https://default0a1b.2c.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc/triggers/manual/paths/invoke?sig=x", Teams},
		{"https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/ghi/jkl", Teams},
		{"https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t", GoogleChat},
		{"http://hooks.slack.com/services/T000/B000/XXXX", ""},      // not https
		{"https://hooks.slack.com.evil.example/services/T/B/X", ""}, // another host
		{"https://evil.example/hooks.slack.com/services/T/B/X", ""}, // the host in the path
		{"https://discord.com/channels/1/2", ""},                    // not a webhook
		{"https://chat.googleapis.com/v1/spaces/AAAA/members", ""},  // not messages
		{"https://logic.azure.com.evil.example/workflows/x", ""},    // another host
		{"https://evillogic.azure.com/workflows/x", ""},             // another domain
		{"https://example.com/hook", ""},                            // any other receiver
		{"not a url at all", ""},
	} {
		got, err := Recognise(tc.url)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("Recognise(%q) = %q, %v; want %q", tc.url, got, err, tc.want)
		}
	}
}

// many returns a message of n answers, each value long.
func many(n int, value string) Message {
	m := Message{Form: "Feedback", Link: "https://hub.example.com/console/forms/s/f/submissions/01", At: time.Date(2026, 11, 29, 9, 30, 0, 0, time.UTC)}
	for i := range n {
		m.Answers = append(m.Answers, Answer{Label: fmt.Sprintf("Question %d", i+1), Value: value})
	}
	return m
}

// TestMessagesWithinLimits writes messages small and very large for each
// service and checks each against the service's documented shape and
// limits (chattest.Check).
func TestMessagesWithinLimits(t *testing.T) {
	cases := map[string]Message{
		"one answer":                   many(1, "Ada"),
		"none":                         {Form: "Empty", At: time.Now()},
		"100 long answers":             many(100, strings.Repeat("long answer ", 400)),
		"100 short answers":            many(100, "yes"),
		"a test":                       {Form: "Feedback", Test: true, Answers: []Answer{{Label: "Name", Value: "A sample answer"}}},
		"a file":                       {Form: "Jobs", Answers: []Answer{{Label: "CV", Value: "cv.pdf", Link: "https://hub.example.com/console/forms/s/f/submissions/01/files/0"}}},
		"an empty answer":              many(3, ""),
		"a title as long as a message": {Form: strings.Repeat("Title ", 200), Answers: many(2, "x").Answers},
	}
	for _, k := range Kinds() {
		for name, m := range cases {
			t.Run(string(k)+"/"+name, func(t *testing.T) {
				b, err := Body(k, m)
				if err != nil {
					t.Fatal(err)
				}
				if err := chattest.Check(string(k), b); err != nil {
					t.Fatalf("%v\n%s", err, cut(string(b), 2000))
				}
			})
		}
	}
}

// TestMessagesShowEverything checks that each message carries the title,
// the answers and the links, and counts what it leaves out.
func TestMessagesShowEverything(t *testing.T) {
	m := Message{Form: "Feedback", Link: "https://hub.example.com/console/forms/s/f/submissions/01", At: time.Now(),
		Answers: []Answer{{Label: "Name", Value: "Ada Lovelace"}, {Label: "CV", Value: "cv.pdf", Link: "https://hub.example.com/files/0"}}}
	for _, k := range Kinds() {
		b, err := Body(k, m)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, want := range []string{"New submission: Feedback", "Name", "Ada Lovelace", "cv.pdf", m.Answers[1].Link, m.Link} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: the message lacks %q:\n%s", k, want, s)
			}
		}
		long, err := Body(k, many(200, strings.Repeat("x", 2000)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(long), "more answers are in the console") {
			t.Errorf("%s: 200 long answers, and the message does not say some were left out", k)
		}
		if strings.Contains(string(long), strings.Repeat("x", MaxValue+1)) {
			t.Errorf("%s: a value longer than %d characters was not cut", k, MaxValue)
		}
	}
}

// TestVisitorsTextIsNotMarkup checks that an answer's markup is shown,
// not obeyed: no mention, link or formatting a visitor wrote reaches the
// chat as such.
func TestVisitorsTextIsNotMarkup(t *testing.T) {
	evil := "<!channel> @everyone <https://evil.example|click> [click](https://evil.example) **bold** <b>bold</b>"
	m := Message{Form: "Feedback", At: time.Now(), Answers: []Answer{{Label: "Message", Value: evil}}}
	forbidden := map[Kind][]string{
		Slack:      {"<!channel>", "<https://evil.example"},
		Discord:    {"@everyone", "[click](", "**bold**"},
		Teams:      {"[click](", "**bold**", "<b>"},
		GoogleChat: {"<b>", "<https://evil.example"},
	}
	for _, k := range Kinds() {
		b, err := Body(k, m)
		if err != nil {
			t.Fatal(err)
		}
		var decoded any
		json.Unmarshal(b, &decoded)
		text := fmt.Sprint(decoded)
		for _, f := range forbidden[k] {
			if strings.Contains(text, f) {
				t.Errorf("%s: the visitor's %q reaches the chat as markup:\n%s", k, f, text)
			}
		}
	}
	b, _ := Body(Discord, m)
	var d struct {
		AllowedMentions *struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	}
	if json.Unmarshal(b, &d); d.AllowedMentions == nil || len(d.AllowedMentions.Parse) != 0 {
		t.Errorf("Discord: allowed_mentions = %+v, want none parsed", d.AllowedMentions)
	}
}

func TestCut(t *testing.T) {
	if got := cut("héllo wörld", 7); got != "héllo…" || utf8.RuneCountInString(got) > 7 {
		t.Errorf("cut = %q", got)
	}
	if got := cut("short", 7); got != "short" {
		t.Errorf("cut = %q", got)
	}
}
