package formsource

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/chat"
	"github.com/hubform/hubform/hubclient"
)

// Limits on delivery settings: enough for any form's owners, small enough
// that one submission cannot fan out into a flood.
const (
	maxNotifyEmails = 20
	maxWebhooks     = 10
	maxDestinations = 10
)

func (v *validator) notify(n *hub.Notify) {
	if n == nil {
		return
	}
	if len(n.Email) == 0 {
		v.addf("hub.notify.email", "hub.notify.email: lists no address; remove \"notify\" or add one")
	}
	if len(n.Email) > maxNotifyEmails {
		v.addf("hub.notify.email", "hub.notify.email: %d addresses, at most %d", len(n.Email), maxNotifyEmails)
	}
	for i, e := range n.Email {
		if !isMailbox(e) {
			v.addf(fmt.Sprintf("hub.notify.email[%d]", i), "hub.notify.email[%d]: %q is not a bare e-mail address such as owner@example.com", i, e)
		}
	}
	if n.ReplyToField != "" {
		switch f := v.byName[n.ReplyToField]; {
		case f == nil:
			v.addf("hub.notify.replyToField", "hub.notify.replyToField: field %q does not exist", n.ReplyToField)
		case f.Type != hubclient.FieldEmail:
			v.addf("hub.notify.replyToField", "hub.notify.replyToField: field %q is of type %q, not email", n.ReplyToField, f.Type)
		}
	}
}

// isMailbox reports whether s is an address alone, without a display name
// or angle brackets, and without characters that could break a header.
func isMailbox(s string) bool {
	if strings.ContainsAny(s, "\r\n<>\" ") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s && strings.Contains(s, "@")
}

func (v *validator) webhooks(hooks []hub.Webhook) {
	if len(hooks) > maxWebhooks {
		v.addf("hub.webhooks", "hub.webhooks: %d receivers, at most %d", len(hooks), maxWebhooks)
	}
	seen := make(map[string]bool, len(hooks))
	// The messages never repeat a URL: it is a secret, which those who
	// may edit the form but not read it must not learn from them.
	for i, h := range hooks {
		at := fmt.Sprintf("hub.webhooks[%d]", i)
		u, err := url.Parse(h.URL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
			v.addf(at+".url", "%s.url: not an absolute http or https URL", at)
		case u.User != nil:
			// It would be logged and listed with every delivery.
			v.addf(at+".url", "%s.url: carries a user name or password; put credentials in the receiver's check of the signature", at)
		case u.Fragment != "":
			v.addf(at+".url", "%s.url: has a fragment, which is never sent", at)
		case seen[h.URL]:
			v.addf(at+".url", "%s.url: the URL of an earlier webhook again", at)
		}
		seen[h.URL] = true
		if _, err := h.Key(); err != nil {
			v.addf(at+".secret", "%s.secret: %v", at, err)
		}
	}
}

// destinations checks the team chats a form posts to. As for webhooks,
// the messages never repeat a URL.
func (v *validator) destinations(ds []hub.Destination) {
	if len(ds) > maxDestinations {
		v.addf("hub.destinations", "hub.destinations: %d chats, at most %d", len(ds), maxDestinations)
	}
	seen := make(map[string]bool, len(ds))
	for i, d := range ds {
		at := fmt.Sprintf("hub.destinations[%d]", i)
		u, err := url.Parse(d.URL)
		switch {
		case err != nil || u.Scheme != "https" || u.Host == "" || u.Opaque != "":
			v.addf(at+".url", "%s.url: not an absolute https URL (a chat's incoming webhook)", at)
			continue
		case u.User != nil:
			v.addf(at+".url", "%s.url: carries a user name or password", at)
		case u.Fragment != "":
			v.addf(at+".url", "%s.url: has a fragment, which is never sent", at)
		case seen[d.URL]:
			v.addf(at+".url", "%s.url: the URL of an earlier destination again", at)
		}
		seen[d.URL] = true
		if _, err := chat.Resolve(d.Kind, d.URL); errors.Is(err, chat.ErrUnknownURL) {
			v.addf(at+".kind", "%s: the URL is %v; set \"kind\" to the chat it posts to, or use hub.webhooks for any other receiver", at, err)
		} else if err != nil {
			v.addf(at+".kind", "%s.kind: %v", at, err)
		}
	}
}
