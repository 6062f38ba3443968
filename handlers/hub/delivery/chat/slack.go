package chat

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Slack's limits on a message of an incoming webhook (Block Kit's
// reference): 50 blocks, a header's text 150 characters, a section's
// 3,000, a button's URL 3,000.
const (
	slackMaxBlocks  = 50
	slackMaxHeader  = 150
	slackMaxSection = 3000
)

func ownsSlack(u *url.URL) bool {
	return strings.EqualFold(u.Hostname(), "hooks.slack.com") &&
		(strings.HasPrefix(u.Path, "/services/") || strings.HasPrefix(u.Path, "/workflows/") || strings.HasPrefix(u.Path, "/triggers/"))
}

type slackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type slackBlock struct {
	Type     string     `json:"type"`
	Text     *slackText `json:"text,omitempty"`
	Elements []any      `json:"elements,omitempty"`
}

type slackButton struct {
	Type string    `json:"type"`
	Text slackText `json:"text"`
	URL  string    `json:"url"`
}

// slackEscape escapes the three characters Slack's mrkdwn reads as
// markup: a visitor's "<!channel>" is shown as typed.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// slackBody writes m as Block Kit: a header, the lead, a section per
// answer, a button to the submission; answers past the blocks' limit are
// counted in a last line.
func slackBody(m Message) ([]byte, error) {
	blocks := []slackBlock{
		{Type: "header", Text: &slackText{"plain_text", cut(m.title(), slackMaxHeader)}},
		{Type: "context", Elements: []any{slackText{"mrkdwn", slackEscape(m.lead())}}},
	}
	// Room for the line of answers left out and the button.
	room := slackMaxBlocks - len(blocks) - 2
	for i, a := range m.Answers {
		if i == room && len(m.Answers) > room {
			blocks = append(blocks, slackBlock{Type: "context", Elements: []any{slackText{"mrkdwn",
				fmt.Sprintf("%d more answers are in the console.", len(m.Answers)-room)}}})
			break
		}
		value := slackEscape(cut(a.Value, MaxValue))
		if a.Link != "" {
			value = "<" + a.Link + "|" + strings.ReplaceAll(value, "|", "¦") + ">"
		}
		if value == "" {
			value = "_(empty)_"
		}
		text := cut("*"+slackEscape(cut(a.Label, 200))+"*\n"+value, slackMaxSection)
		blocks = append(blocks, slackBlock{Type: "section", Text: &slackText{"mrkdwn", text}})
	}
	if m.Link != "" {
		blocks = append(blocks, slackBlock{Type: "actions", Elements: []any{
			slackButton{Type: "button", Text: slackText{"plain_text", "Open the submission"}, URL: m.Link},
		}})
	}
	return json.Marshal(map[string]any{
		// The notification's text, and what clients without blocks show.
		"text":   slackEscape(m.title()),
		"blocks": blocks,
	})
}
