package chat

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
)

// Google Chat takes a message of 32,000 bytes at most; a card's widgets
// of text show a subset of HTML, which a visitor's answers are escaped
// from.
const googleChatMaxBytes = 32000

func ownsGoogleChat(u *url.URL) bool {
	return strings.EqualFold(u.Hostname(), "chat.googleapis.com") && strings.HasPrefix(u.Path, "/v1/spaces/") &&
		strings.HasSuffix(u.Path, "/messages")
}

// googleChatBody writes m as a card (cardsV2): the title and lead in its
// header, a decorated text per answer, a button to the submission. Answers
// that would take the message past Chat's size are counted in a last
// widget.
func googleChatBody(m Message) ([]byte, error) {
	var answers []any
	for _, a := range m.Answers {
		value := html.EscapeString(cut(a.Value, MaxValue))
		if a.Link != "" {
			value = `<a href="` + html.EscapeString(a.Link) + `">` + value + `</a>`
		}
		answers = append(answers, map[string]any{"decoratedText": map[string]any{
			"topLabel": cut(a.Label, 200), "text": value, "wrapText": true,
		}})
	}
	message := func(widgets []any, left int) map[string]any {
		widgets = append([]any(nil), widgets...)
		switch {
		case left > 0:
			widgets = append(widgets, map[string]any{"textParagraph": map[string]any{"text": fmt.Sprintf("%d more answers are in the console.", left)}})
		case len(widgets) == 0:
			// A section holds one widget at least.
			widgets = append(widgets, map[string]any{"textParagraph": map[string]any{"text": "No answers."}})
		}
		if m.Link != "" {
			widgets = append(widgets, map[string]any{"buttonList": map[string]any{"buttons": []any{
				map[string]any{"text": "Open the submission", "onClick": map[string]any{"openLink": map[string]any{"url": m.Link}}},
			}}})
		}
		return map[string]any{
			// The notification's text, and what clients without cards show.
			"text": m.title(),
			"cardsV2": []any{map[string]any{
				"cardId": "submission",
				"card": map[string]any{
					"header":   map[string]any{"title": cut(m.title(), 200), "subtitle": m.lead()},
					"sections": []any{map[string]any{"widgets": widgets}},
				},
			}},
		}
	}
	for shown := len(answers); ; shown-- {
		b, err := json.Marshal(message(answers[:shown], len(answers)-shown))
		if err != nil || len(b) <= googleChatMaxBytes || shown == 0 {
			return b, err
		}
	}
}
