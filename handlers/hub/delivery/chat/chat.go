// Package chat writes a submission as the message a team chat's incoming
// webhook takes: Slack's Block Kit, Discord's embed, Microsoft Teams'
// Adaptive Card (through a Workflows URL) and Google Chat's card. Each
// service is one value of [services]: how its URLs look, how a message
// is written for it, and the limits it holds messages to.
//
// What a visitor typed never becomes markup: each service's own escapes
// are applied, and Discord is told to ping nobody, so that an answer of
// "@everyone" or "<!channel>" is shown, not obeyed.
package chat

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind names a chat service, as a form's hub.destinations writes it.
type Kind string

// The chat services.
const (
	Slack      Kind = "slack"
	Discord    Kind = "discord"
	Teams      Kind = "teams"
	GoogleChat Kind = "googlechat"
)

// Message is what a chat message says of a submission.
type Message struct {
	// Form is the form's title.
	Form string
	// Answers are the submission's answers under the form's labels, in
	// the form's order; a file is an answer whose Link opens it.
	Answers []Answer
	// Link opens the submission in the console.
	Link string
	// At is when the submission was stored.
	At time.Time
	// Test marks the message the Settings tab sends to try a destination.
	Test bool
}

// Answer is one answer of a Message.
type Answer struct {
	Label, Value string
	// Link, when set, is where Value, a file's name, is opened.
	Link string
}

// MaxValue is how many characters of an answer a message shows: a long
// one is cut, and the whole is a click away in the console.
const MaxValue = 500

// service is one chat service.
type service struct {
	kind Kind
	name string
	// owns reports whether u is one of the service's incoming webhooks.
	owns func(u *url.URL) bool
	// body writes m as the JSON the service takes.
	body func(m Message) ([]byte, error)
}

var services = []service{
	{Slack, "Slack", ownsSlack, slackBody},
	{Discord, "Discord", ownsDiscord, discordBody},
	{Teams, "Microsoft Teams", ownsTeams, teamsBody},
	{GoogleChat, "Google Chat", ownsGoogleChat, googleChatBody},
}

func lookup(k Kind) (service, bool) {
	for _, s := range services {
		if s.kind == k {
			return s, true
		}
	}
	return service{}, false
}

// Kinds returns every chat service's Kind.
func Kinds() []Kind {
	out := make([]Kind, len(services))
	for i, s := range services {
		out[i] = s.kind
	}
	return out
}

// Valid reports whether k is a chat service's Kind.
func (k Kind) Valid() bool {
	_, ok := lookup(k)
	return ok
}

// Name returns the service's name as people write it, or the kind itself
// when it is not one.
func (k Kind) Name() string {
	if s, ok := lookup(k); ok {
		return s.name
	}
	return string(k)
}

// ErrUnknownURL means a URL is none of the chat services' incoming
// webhooks.
var ErrUnknownURL = errors.New("not the address of a Slack, Discord, Microsoft Teams or Google Chat incoming webhook")

// Recognise returns the service whose incoming webhook rawURL is, by the
// address each service gives its webhooks.
func Recognise(rawURL string) (Kind, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "https" {
		return "", ErrUnknownURL
	}
	for _, s := range services {
		if s.owns(u) {
			return s.kind, nil
		}
	}
	return "", ErrUnknownURL
}

// Body returns m written for the service k.
func Body(k Kind, m Message) ([]byte, error) {
	s, ok := lookup(k)
	if !ok {
		return nil, errors.New("chat: unknown kind " + string(k))
	}
	return s.body(m)
}

// title is the message's first line.
func (m Message) title() string {
	if m.Test {
		return "Test message: " + m.Form
	}
	return "New submission: " + m.Form
}

// lead is the line under the title.
func (m Message) lead() string {
	if m.Test {
		return "This is how each submission of this form will look here."
	}
	return "Received " + m.At.UTC().Format("2 Jan 2006 15:04 MST") + "."
}

// cut returns s shortened to at most n characters, an ellipsis its last
// when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " \n") + "…"
}

// hostIs reports whether host is domain or one of its subdomains.
func hostIs(host, domain string) bool {
	host = strings.ToLower(host)
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// Resolve returns the service of a destination of kind (empty: recognised
// from rawURL) and rawURL: kind when it names one, whatever the address
// (a proxy before the chat), else the service whose address rawURL is.
func Resolve(kind, rawURL string) (Kind, error) {
	if kind == "" {
		return Recognise(rawURL)
	}
	if k := Kind(kind); k.Valid() {
		return k, nil
	}
	return "", fmt.Errorf("the kind %q is none of %s", kind, strings.Join(kindNames(), ", "))
}

func kindNames() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, `"`+string(k)+`"`)
	}
	return out
}
