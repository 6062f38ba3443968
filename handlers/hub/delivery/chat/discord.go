package chat

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Discord's limits on an embed (its API's reference): a title of 256
// characters, a description of 4,096, 25 fields, a field's name 256 and
// its value 1,024, and 6,000 characters together.
const (
	discordMaxTitle      = 256
	discordMaxFields     = 25
	discordMaxFieldName  = 256
	discordMaxFieldValue = 1024
	discordMaxTotal      = 6000
)

func ownsDiscord(u *url.URL) bool {
	h := strings.ToLower(u.Hostname())
	return (h == "discord.com" || h == "discordapp.com" || h == "ptb.discord.com" || h == "canary.discord.com") &&
		strings.HasPrefix(u.Path, "/api/webhooks/")
}

type discordField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline"`
}

type discordEmbed struct {
	Title       string         `json:"title"`
	URL         string         `json:"url,omitempty"`
	Description string         `json:"description"`
	Fields      []discordField `json:"fields,omitempty"`
	Timestamp   string         `json:"timestamp,omitempty"`
	Color       int            `json:"color"`
}

// discordEscape escapes the characters of Discord's markdown, so that what
// a visitor typed is shown as typed.
var discordEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`,
	">", `\>`, "#", `\#`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`, "-", `\-`, "@", "@\u200b").Replace

// discordBody writes m as one embed, a field per answer; answers past the
// fields' limit or the embed's size are counted in its description.
func discordBody(m Message) ([]byte, error) {
	e := discordEmbed{Title: cut(m.title(), discordMaxTitle), URL: m.Link, Color: 0x4f46e5}
	if !m.Test {
		e.Timestamp = m.At.UTC().Format(time.RFC3339)
	}
	lead := discordEscape(m.lead())
	total := len([]rune(e.Title)) + len([]rune(lead)) + 60
	left := 0
	for i, a := range m.Answers {
		name := cut(discordEscape(a.Label), discordMaxFieldName)
		value := discordEscape(cut(a.Value, MaxValue))
		if a.Link != "" {
			value = "[" + value + "](" + a.Link + ")"
		}
		if value == "" {
			value = "*(empty)*"
		}
		value = cut(value, discordMaxFieldValue)
		size := len([]rune(name)) + len([]rune(value))
		if len(e.Fields) == discordMaxFields || total+size > discordMaxTotal {
			left = len(m.Answers) - i
			break
		}
		total += size
		e.Fields = append(e.Fields, discordField{Name: name, Value: value})
	}
	e.Description = lead
	if left > 0 {
		e.Description += fmt.Sprintf("\n%d more answers are in the console.", left)
	}
	return json.Marshal(map[string]any{
		"embeds": []discordEmbed{e},
		// Nobody is pinged, whatever the answers say.
		"allowed_mentions": map[string]any{"parse": []string{}},
	})
}
