package console

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/formsource"
)

// The Settings tab's section "E-mail and webhooks": who is e-mailed each
// submission, the signed-in member first, and the webhooks, added by
// their address alone. The hub makes each webhook's signing secret, which
// the page after the save shows once; no page shows it again, nor a
// secret the file had, so that a secret is never echoed back to a page
// that may be cached, shared on a screen or read by an editor who may not
// read the file's secrets. Who may take the e-mail is checked as each one
// is sent (package delivery): an address that is not a member's waits for
// its own confirmation, whatever the page lets an owner type.

// newSecretsKey is where editDelivery leaves the secrets it made, for the
// page after the save; sessionSecrets is the session key they wait under.
const (
	newSecretsKey  = "hubform.console.newSecrets"
	sessionSecrets = "webhookSecrets"
)

// newSecret is a webhook secret the hub made: the receiver's address, as
// a member who may not read the file's secrets sees it, and the secret.
type newSecret struct {
	Receiver string `json:"receiver"`
	Secret   string `json:"secret"`
}

// makeWebhookSecret returns a new signing secret as the Standard Webhooks
// specification writes it: "whsec_" and 32 random bytes in base64.
func makeWebhookSecret() string {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return "whsec_" + base64.StdEncoding.EncodeToString(key)
}

// editDelivery sets the notification's addresses from the checkbox
// "E-mail me" and the other addresses, and the webhooks: those removed,
// those given a new secret, and one added.
func editDelivery(d *formFile, c echo.Context, form url.Values) error {
	me := memberOf(c).Email
	old, _ := d.notifyList()
	emails := notifyWith(old, lines(form.Get("notifyEmail")), me, form.Get("notifyMe") == "on")
	errs := []error{editNotify(d, emails, strings.TrimSpace(form.Get("replyToField")))}
	made, err := editWebhooks(d, form)
	errs = append(errs, err, editDestinations(d, form))
	if len(made) > 0 {
		c.Set(newSecretsKey, made)
	}
	return errors.Join(errs...)
}

// notifyWith is the list of addresses e-mailed each submission: others as
// typed, and me when asked for, where the list had it before (else first),
// once whatever its case.
func notifyWith(old, others []string, me string, withMe bool) []string {
	out := slices.DeleteFunc(slices.Clone(others), func(a string) bool { return me != "" && strings.EqualFold(a, me) })
	if !withMe || me == "" {
		return out
	}
	at := slices.IndexFunc(old, func(a string) bool { return strings.EqualFold(a, me) })
	if at < 0 {
		return slices.Insert(out, 0, me)
	}
	// As the file spells it: the list is the owner's.
	return slices.Insert(out, min(at, len(out)), old[at])
}

// notifyList returns the addresses e-mailed each submission and the field
// replies go to; none when unreadable.
func (d *formFile) notifyList() ([]string, string) {
	var n struct {
		Email        []string `json:"email"`
		ReplyToField string   `json:"replyToField"`
	}
	_ = json.Unmarshal(d.Hub["notify"], &n)
	return n.Email, n.ReplyToField
}

// notifiesMe reports whether the list e-mails the signed-in member.
func (d *formFile) notifiesMe(me string) bool {
	emails, _ := d.notifyList()
	return me != "" && slices.ContainsFunc(emails, func(a string) bool { return strings.EqualFold(a, me) })
}

// otherEmails are the addresses besides me, one a line, for their input.
func (d *formFile) otherEmails(me string) string {
	emails, _ := d.notifyList()
	return strings.Join(notifyWith(nil, emails, me, false), "\n")
}

// webhooks returns the form's webhooks, or a problem when the file's
// cannot be read.
func (d *formFile) webhooks() ([]hub.Webhook, error) {
	var hooks []hub.Webhook
	if raw, ok := d.Hub["webhooks"]; ok && json.Unmarshal(raw, &hooks) != nil {
		return nil, problem("hub.webhooks", "the webhooks cannot be read: fix them in the JSON file")
	}
	return hooks, nil
}

// editWebhooks removes the webhooks whose box "Remove" was checked, gives
// a new secret to those whose box asked for one, and adds the posted
// address with a secret of its own; it returns the secrets it made.
func editWebhooks(d *formFile, form url.Values) ([]newSecret, error) {
	hooks, err := d.webhooks()
	if err != nil {
		return nil, err
	}
	var kept []hub.Webhook
	var made []newSecret
	for i, h := range hooks {
		n := strconv.Itoa(i)
		if slices.Contains(form["webhookRemove"], n) {
			continue
		}
		if slices.Contains(form["webhookRenew"], n) {
			h.Secret = makeWebhookSecret()
			made = append(made, newSecret{Receiver: hub.RedactURL(h.URL), Secret: h.Secret})
		}
		kept = append(kept, h)
	}
	if raw := strings.TrimSpace(form.Get("webhookURL")); raw != "" {
		if err := checkWebhookURL(raw); err != nil {
			return nil, err
		}
		h := hub.Webhook{URL: raw, Secret: makeWebhookSecret()}
		made = append(made, newSecret{Receiver: hub.RedactURL(h.URL), Secret: h.Secret})
		kept = append(kept, h)
	}
	d.setHub("webhooks", kept, len(kept) == 0)
	return made, nil
}

// checkWebhookURL refuses an address the hub would not deliver to, or
// should not: not https (the event carries what visitors sent), with a
// user or password (they would be listed with every delivery), a fragment
// (never sent), or a host of a private network, which the hub does not
// connect to. Its messages never repeat the address, which may carry the
// receiver's token.
func checkWebhookURL(raw string) error {
	const at = "hub.webhookURL"
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Scheme != "https" || u.Host == "" || u.Opaque != "":
		return problem(at, "the webhook's address is a full address starting with https://, such as https://hooks.example.com/forms")
	case u.User != nil:
		return problem(at, "the webhook's address carries a user name or password: leave them out, the receiver checks the signature instead")
	case u.Fragment != "":
		return problem(at, "the webhook's address has a part after #, which is never sent: leave it out")
	case delivery.IsPrivateHost(u.Hostname()):
		return problem(at, "the webhook's address is of a private network, which the hub sends nothing to: use a public address (a hub whose operator allows that network takes it in the JSON file)")
	}
	return nil
}

// webhookRows are the form's webhooks as the settings list them: the
// scheme and host each posts to, which is enough to tell them apart and
// never carries the receiver's token, and never a secret. For a member who
// may not read the file's secrets even the host is hidden.
func (d *formFile) webhookRows() []string {
	hooks, _ := d.webhooks()
	var out []string
	for _, h := range hooks {
		if formsource.IsHidden(h.URL) {
			out = append(out, "an address shown to the workspace's admins")
			continue
		}
		out = append(out, hub.RedactURL(h.URL))
	}
	return out
}

// settingsContext is what the Settings tab shows beside the form's file.
type settingsContext struct {
	// Me is the signed-in member's address, for "E-mail me".
	Me string
	// NoMail is whether the hub sends no e-mail: settings that need it
	// then say what its operator must set.
	NoMail bool
	// NewSecrets are the webhook secrets the last save made, shown once.
	NewSecrets []newSecret
	// ChatTests says whether chats may be sent a test message; ChatTest
	// is the answer to the last one, shown once.
	ChatTests bool
	ChatTest  *chatTestResult
	// Chats are the form's chats, as chatRows lists them.
	Chats []destinationRow
}

// keepSecretsToShow keeps the secrets a save made for the next page, in
// the session rather than the URL, so that no address, log or history
// holds them.
func (con *Console) keepSecretsToShow(c echo.Context, made []newSecret) {
	raw, _ := json.Marshal(made)
	con.sessions.Put(c.Request().Context(), sessionSecrets, string(raw))
}

// secretsToShow takes the secrets kept for this page: shown once.
func (con *Console) secretsToShow(c echo.Context) []newSecret {
	var made []newSecret
	if raw := con.sessions.PopString(c.Request().Context(), sessionSecrets); raw != "" {
		_ = json.Unmarshal([]byte(raw), &made)
	}
	return made
}

// needsMail names the settings of d that send e-mail, for the warning of
// a hub that sends none.
func (d *formFile) needsMail() []string {
	var out []string
	if ar, err := d.autoresponder(); err == nil && ar != nil {
		out = append(out, "the confirmation e-mail")
	}
	if emails, _ := d.notifyList(); len(emails) > 0 {
		out = append(out, "the e-mail of each submission")
	}
	return out
}
