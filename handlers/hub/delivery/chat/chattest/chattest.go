// Package chattest checks messages against the shapes and limits the chat
// services document for their incoming webhooks, and runs local receivers
// that stand for them in tests.
package chattest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"unicode/utf8"
)

// Check returns what is wrong with body as a message of the chat service
// kind ("slack", "discord", "teams", "googlechat"), by the service's
// documentation: the members it requires, their types, and its limits.
func Check(kind string, body []byte) error {
	if !json.Valid(body) {
		return errors.New("not JSON")
	}
	switch kind {
	case "slack":
		return checkSlack(body)
	case "discord":
		return checkDiscord(body)
	case "teams":
		return checkTeams(body)
	case "googlechat":
		return checkGoogleChat(body)
	}
	return fmt.Errorf("unknown kind %q", kind)
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// checkSlack: Block Kit in an incoming webhook's message
// (docs.slack.dev, "Blocks" and "Sending messages using incoming
// webhooks"): text or blocks; at most 50 blocks; a header's plain text of
// 150 characters; a section's text of 3,000; a context's 10 elements; a
// button's text of 75 and URL of 3,000.
func checkSlack(body []byte) error {
	var m struct {
		Text   *string `json:"text"`
		Blocks []struct {
			Type string `json:"type"`
			Text *struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"text"`
			Elements []struct {
				Type string `json:"type"`
				Text any    `json:"text"`
				URL  string `json:"url"`
			} `json:"elements"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	if m.Text == nil && len(m.Blocks) == 0 {
		return errors.New("neither text nor blocks")
	}
	if len(m.Blocks) > 50 {
		return fmt.Errorf("%d blocks, more than 50", len(m.Blocks))
	}
	for i, b := range m.Blocks {
		switch b.Type {
		case "header":
			if b.Text == nil || b.Text.Type != "plain_text" || b.Text.Text == "" || runes(b.Text.Text) > 150 {
				return fmt.Errorf("block %d: a header's text is plain_text of 1 to 150 characters", i)
			}
		case "section":
			if b.Text == nil || (b.Text.Type != "mrkdwn" && b.Text.Type != "plain_text") || b.Text.Text == "" || runes(b.Text.Text) > 3000 {
				return fmt.Errorf("block %d: a section's text is of 1 to 3,000 characters", i)
			}
		case "context":
			if len(b.Elements) == 0 || len(b.Elements) > 10 {
				return fmt.Errorf("block %d: a context has 1 to 10 elements", i)
			}
			for _, e := range b.Elements {
				if e.Type != "mrkdwn" && e.Type != "plain_text" && e.Type != "image" {
					return fmt.Errorf("block %d: a context's element of type %q", i, e.Type)
				}
			}
		case "actions":
			if len(b.Elements) == 0 || len(b.Elements) > 25 {
				return fmt.Errorf("block %d: actions have 1 to 25 elements", i)
			}
			for _, e := range b.Elements {
				t, _ := e.Text.(map[string]any)
				if e.Type != "button" || t["type"] != "plain_text" || runes(fmt.Sprint(t["text"])) > 75 || runes(e.URL) > 3000 {
					return fmt.Errorf("block %d: a button has plain text of 75 characters at most and a URL of 3,000", i)
				}
			}
		case "divider":
		default:
			return fmt.Errorf("block %d: type %q", i, b.Type)
		}
	}
	return nil
}

// checkDiscord: an execute-webhook body with embeds (discord.com/developers,
// "Execute Webhook" and "Embed Limits"): content or embeds; at most 10
// embeds; a title of 256, a description of 4,096, 25 fields, a field's
// name of 256 and value of 1,024, neither empty, and 6,000 characters
// together.
func checkDiscord(body []byte) error {
	var m struct {
		Content *string `json:"content"`
		Embeds  []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			URL         string `json:"url"`
			Timestamp   string `json:"timestamp"`
			Fields      []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"fields"`
		} `json:"embeds"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	if m.Content == nil && len(m.Embeds) == 0 {
		return errors.New("neither content nor embeds")
	}
	if len(m.Embeds) > 10 {
		return fmt.Errorf("%d embeds, more than 10", len(m.Embeds))
	}
	for i, e := range m.Embeds {
		total := runes(e.Title) + runes(e.Description)
		if runes(e.Title) > 256 || runes(e.Description) > 4096 {
			return fmt.Errorf("embed %d: a title of 256 characters at most, a description of 4,096", i)
		}
		if len(e.Fields) > 25 {
			return fmt.Errorf("embed %d: %d fields, more than 25", i, len(e.Fields))
		}
		for j, f := range e.Fields {
			if f.Name == "" || f.Value == "" || runes(f.Name) > 256 || runes(f.Value) > 1024 {
				return fmt.Errorf("embed %d, field %d: a name of 1 to 256 characters, a value of 1 to 1,024", i, j)
			}
			total += runes(f.Name) + runes(f.Value)
		}
		if total > 6000 {
			return fmt.Errorf("embed %d: %d characters, more than 6,000", i, total)
		}
	}
	return nil
}

// checkTeams: a message with an Adaptive Card, as a Teams channel's
// Workflows webhook takes it (learn.microsoft.com, "Create incoming
// webhooks with Workflows for Microsoft Teams"): type "message",
// attachments of contentType application/vnd.microsoft.card.adaptive
// whose content is an AdaptiveCard of a version, a body of elements with
// a type; 28 KB at most.
func checkTeams(body []byte) error {
	if len(body) > 28<<10 {
		return fmt.Errorf("%d bytes, more than 28 KB", len(body))
	}
	var m struct {
		Type        string `json:"type"`
		Attachments []struct {
			ContentType string `json:"contentType"`
			Content     struct {
				Type    string           `json:"type"`
				Version string           `json:"version"`
				Body    []map[string]any `json:"body"`
				Actions []map[string]any `json:"actions"`
			} `json:"content"`
		} `json:"attachments"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	if m.Type != "message" || len(m.Attachments) == 0 {
		return errors.New(`a message is of type "message" with attachments`)
	}
	for i, a := range m.Attachments {
		c := a.Content
		if a.ContentType != "application/vnd.microsoft.card.adaptive" || c.Type != "AdaptiveCard" || c.Version == "" || len(c.Body) == 0 {
			return fmt.Errorf("attachment %d: an AdaptiveCard with a version and a body", i)
		}
		for j, e := range c.Body {
			switch e["type"] {
			case "TextBlock":
				if s, _ := e["text"].(string); s == "" {
					return fmt.Errorf("attachment %d, element %d: a TextBlock without text", i, j)
				}
			case "FactSet":
				facts, _ := e["facts"].([]any)
				if len(facts) == 0 {
					return fmt.Errorf("attachment %d, element %d: a FactSet without facts", i, j)
				}
				for _, f := range facts {
					f, _ := f.(map[string]any)
					if _, ok := f["title"].(string); !ok {
						return fmt.Errorf("attachment %d, element %d: a fact without a title", i, j)
					}
					if _, ok := f["value"].(string); !ok {
						return fmt.Errorf("attachment %d, element %d: a fact without a value", i, j)
					}
				}
			default:
				return fmt.Errorf("attachment %d, element %d: type %v", i, j, e["type"])
			}
		}
		for j, a := range c.Actions {
			if u, _ := a["url"].(string); a["type"] != "Action.OpenUrl" || u == "" {
				return fmt.Errorf("attachment %d, action %d: an Action.OpenUrl with a url", i, j)
			}
		}
	}
	return nil
}

// checkGoogleChat: a message with a card (developers.google.com/chat,
// "Card builder" and the Message resource): text or cardsV2; each card
// with a cardId and sections of widgets of a known kind; 32,000 bytes at
// most.
func checkGoogleChat(body []byte) error {
	if len(body) > 32000 {
		return fmt.Errorf("%d bytes, more than 32,000", len(body))
	}
	var m struct {
		Text    *string `json:"text"`
		CardsV2 []struct {
			CardID string `json:"cardId"`
			Card   struct {
				Header *struct {
					Title string `json:"title"`
				} `json:"header"`
				Sections []struct {
					Widgets []map[string]json.RawMessage `json:"widgets"`
				} `json:"sections"`
			} `json:"card"`
		} `json:"cardsV2"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	if m.Text == nil && len(m.CardsV2) == 0 {
		return errors.New("neither text nor cardsV2")
	}
	for i, c := range m.CardsV2 {
		if c.CardID == "" || len(c.Card.Sections) == 0 {
			return fmt.Errorf("card %d: a cardId and sections", i)
		}
		if c.Card.Header != nil && c.Card.Header.Title == "" {
			return fmt.Errorf("card %d: a header without a title", i)
		}
		for j, s := range c.Card.Sections {
			if len(s.Widgets) == 0 {
				return fmt.Errorf("card %d, section %d: no widgets", i, j)
			}
			for k, w := range s.Widgets {
				if len(w) != 1 {
					return fmt.Errorf("card %d, section %d, widget %d: one kind of widget each", i, j, k)
				}
				for kind := range w {
					switch kind {
					case "decoratedText", "textParagraph", "buttonList", "divider", "image":
					default:
						return fmt.Errorf("card %d, section %d, widget %d: kind %q", i, j, k, kind)
					}
				}
			}
		}
	}
	return nil
}

// Receiver is a local stand-in for a chat service's incoming webhook: it
// checks every message it takes (Check) and answers as the service does
// (Slack 200 "ok", Discord 204, Teams 202, Google Chat 200 with the
// message), or with Fail's status while Fail is set.
type Receiver struct {
	*httptest.Server
	Kind string
	mu   sync.Mutex
	got  [][]byte
	bad  []error
	fail int
}

// NewReceiver starts a Receiver of kind; Close stops it.
func NewReceiver(kind string) *Receiver {
	r := &Receiver{Kind: kind}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

// Fail has the receiver answer status to every message from now on; 0
// has it take them again.
func (r *Receiver) Fail(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = status
}

// Messages returns the bodies of the messages taken so far.
func (r *Receiver) Messages() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.got...)
}

// Errors returns what was wrong with the messages taken so far.
func (r *Receiver) Errors() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.bad...)
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	r.mu.Lock()
	fail := r.fail
	if fail == 0 {
		r.got = append(r.got, body)
	}
	r.mu.Unlock()
	if fail != 0 {
		http.Error(w, "no_service", fail)
		return
	}
	if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		r.reject(w, fmt.Errorf("%s with Content-Type %q, want a POST of application/json", req.Method, req.Header.Get("Content-Type")))
		return
	}
	if err := Check(r.Kind, body); err != nil {
		r.reject(w, err)
		return
	}
	switch r.Kind {
	case "slack":
		io.WriteString(w, "ok")
	case "discord":
		w.WriteHeader(http.StatusNoContent)
	case "teams":
		w.WriteHeader(http.StatusAccepted)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

func (r *Receiver) reject(w http.ResponseWriter, err error) {
	r.mu.Lock()
	r.bad = append(r.bad, err)
	r.mu.Unlock()
	http.Error(w, "invalid_payload: "+err.Error(), http.StatusBadRequest)
}
