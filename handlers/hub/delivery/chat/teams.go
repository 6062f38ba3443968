package chat

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Microsoft Teams takes a message of 28 KB at most; an Adaptive Card of
// version 1.4 is what a channel's Workflows webhook posts ("Post to a
// channel when a webhook request is received").
const (
	teamsMaxBytes     = 28 << 10
	teamsCardVersion  = "1.4"
	teamsCardSchema   = "http://adaptivecards.io/schemas/adaptive-card.json"
	teamsCardType     = "application/vnd.microsoft.card.adaptive"
	teamsMaxFactValue = MaxValue
)

// ownsTeams recognises a Workflows webhook (Power Automate, on Azure Logic
// Apps or the Power Platform's hosts) and an Office 365 connector's.
func ownsTeams(u *url.URL) bool {
	h := u.Hostname()
	switch {
	case hostIs(h, "logic.azure.com"):
		return strings.Contains(u.Path, "/workflows/")
	case hostIs(h, "api.powerplatform.com"):
		return strings.Contains(u.Path, "/workflows/")
	case hostIs(h, "webhook.office.com"):
		return strings.HasPrefix(u.Path, "/webhookb2/")
	}
	return false
}

type teamsFact struct {
	Title string `json:"title"`
	Value string `json:"value"`
}

// teamsEscape escapes the characters of the Adaptive Cards' markdown.
var teamsEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "#", `\#`,
	"-", `\-`, "<", "&lt;", ">", "&gt;").Replace

// teamsBody writes m as an Adaptive Card in a message: the title, the
// lead, the answers as facts, a button to the submission. Answers that
// would take the message past Teams' size are counted in a last line.
func teamsBody(m Message) ([]byte, error) {
	card := func(facts []teamsFact, left int) map[string]any {
		body := []any{
			map[string]any{"type": "TextBlock", "text": teamsEscape(m.title()), "weight": "Bolder", "size": "Medium", "wrap": true},
			map[string]any{"type": "TextBlock", "text": teamsEscape(m.lead()), "isSubtle": true, "wrap": true, "spacing": "None"},
		}
		if len(facts) > 0 {
			body = append(body, map[string]any{"type": "FactSet", "facts": facts})
		}
		if left > 0 {
			body = append(body, map[string]any{"type": "TextBlock", "text": fmt.Sprintf("%d more answers are in the console.", left), "wrap": true})
		}
		content := map[string]any{"$schema": teamsCardSchema, "type": "AdaptiveCard", "version": teamsCardVersion, "body": body}
		if m.Link != "" {
			content["actions"] = []any{map[string]any{"type": "Action.OpenUrl", "title": "Open the submission", "url": m.Link}}
		}
		return map[string]any{
			"type":        "message",
			"attachments": []any{map[string]any{"contentType": teamsCardType, "contentUrl": nil, "content": content}},
		}
	}
	var facts []teamsFact
	for _, a := range m.Answers {
		value := teamsEscape(cut(a.Value, teamsMaxFactValue))
		if a.Link != "" {
			value = "[" + value + "](" + a.Link + ")"
		}
		facts = append(facts, teamsFact{Title: teamsEscape(cut(a.Label, 200)), Value: value})
	}
	for shown := len(facts); ; shown-- {
		b, err := json.Marshal(card(facts[:shown], len(facts)-shown))
		if err != nil || len(b) <= teamsMaxBytes || shown == 0 {
			return b, err
		}
	}
}
