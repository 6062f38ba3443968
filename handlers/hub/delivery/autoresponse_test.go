package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// confirmForm is a form that confirms each submission to its visitor, in
// German too.
func confirmForm(slug string) *hub.Form {
	return &hub.Form{Site: "site", Slug: slug,
		Schema: &hubclient.Schema{Title: "Contact us", Fields: []hubclient.Field{
			{Name: "name", Type: "text", Label: "Your name"},
			{Name: "email", Type: "email", Label: "Email"},
			{Name: "topic", Type: "select", Label: "Topic", Options: []hubclient.Option{{Value: "sales", Label: "Sales"}}},
			{Name: "tags", Type: "checkboxes", Label: "Tags", Options: []hubclient.Option{{Value: "a", Label: "Alpha"}, {Value: "b", Label: "Beta"}}},
		}},
		Settings: hub.Settings{
			Notify: &hub.Notify{Email: []string{"owner@example.com", "two@example.org"}},
			Autoresponder: &hub.Autoresponder{
				EmailField: "email",
				Subject:    "Thanks, {{name}}",
				Body:       "Hi {{ name }},\nyou asked about {{topic}}:\n{{tags}}\nBye",
				I18n: map[string]hub.AutoresponderText{
					"de": {Subject: "Danke, {{name}}", Body: "Hallo {{name}},\nThema: {{topic}}"},
					"fr": {Subject: "Merci, {{name}}"}, // the body falls back to English
				},
			},
		},
	}
}

// confirmation returns a submission of form slug from the visitor at email.
func confirmation(id, slug, email, name, locale string) hub.Submission {
	s := storetest.Submission(id)
	s.Slug, s.Locale = slug, locale
	p, _ := json.Marshal(map[string]any{"name": name, "email": email, "topic": "sales", "tags": []string{"a", "b"}})
	s.Payload = p
	return s
}

// flakyMailer fails the first attempt at each message to failTo, then
// sends through Mailer.
type flakyMailer struct {
	Mailer
	failTo string
	mu     sync.Mutex
	failed map[string]bool // Message-ID → failed once
}

func (f *flakyMailer) Send(ctx context.Context, m *gomail.Msg) error {
	to := slices.ContainsFunc(m.GetAddrHeader(gomail.HeaderTo), func(a *mail.Address) bool { return a.Address == f.failTo })
	id := m.GetGenHeader(gomail.HeaderMessageID)
	f.mu.Lock()
	fail := to && !f.failed[id[0]]
	f.failed[id[0]] = true
	f.mu.Unlock()
	if fail {
		return errors.New("421 try again later")
	}
	return f.Mailer.Send(ctx, m)
}

// TestConfirmationSent stores submissions of forms with an autoresponder
// and reads back through a real SMTP server what their visitors got: the
// visitor's language with the base language as fallback, placeholders
// filled and escaped in HTML, three per address a day whatever the form, none for
// an address that is not one or a submission held as spam, and a retry
// after the server refused.
func TestConfirmationSent(t *testing.T) {
	mp := mailpittest.Start(t)
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	smtp, err := NewSMTP(mp.URL(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	mailer := &flakyMailer{Mailer: smtp, failTo: "retry@example.net", failed: map[string]bool{}}
	q := openQueueWith(t, db, "", forms{"site/form": confirmForm("form"), "site/other": confirmForm("other")}, func(c *Config) {
		c.Mailer, c.MailFrom = mailer, "Acme forms <hub@forms.example.com>"
		c.Now = func() time.Time { return storetest.T0 }
	})
	held := confirmation("held", "form", "held@example.net", "Held", "")
	held.Spam, held.Held = true, true
	subs := []hub.Submission{
		confirmation("de", "form", "jane@example.net", "<b>x</b>", "de-AT"),
		confirmation("fr", "form", "marie@example.net", "Marie", "fr-CA"),
		confirmation("en", "form", "john@example.net", "John", "pt-BR"),
		confirmation("r1", "form", "repeat@example.net", "R", ""),
		confirmation("r2", "form", "Repeat@Example.net", "R", ""),
		confirmation("r3", "form", "repeat@example.net", "R", ""),
		confirmation("r4", "form", "repeat@example.net", "R", ""),
		confirmation("r-other", "other", "repeat@example.net", "R", ""),
		confirmation("bad1", "form", "Jane <jane@example.net>", "Bad", ""),
		confirmation("bad2", "form", "jane@example.net\r\nBcc: victim@example.org", "Bad", ""),
		confirmation("bad3", "form", "not an address", "Bad", ""),
		confirmation("retry", "form", "retry@example.net", "Retry", ""),
		held,
	}
	for _, s := range subs {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", s.ID, err)
		}
	}

	// The confirmations are queued with the submission, or not at all.
	// The budget of an address is the hub's, not the form's: r-other gets
	// none.
	want := map[string]bool{"de": true, "fr": true, "en": true, "r1": true, "r2": true, "r3": true, "retry": true}
	var confirmations []Delivery
	for _, slug := range []string{"form", "other"} {
		list, err := q.List(ctx, "site", slug)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range list {
			if d.Kind == (AutoresponseArgs{}).Kind() {
				confirmations = append(confirmations, d)
				if d.Target != "confirmation e-mail" {
					t.Errorf("delivery %d's target is %q", d.ID, d.Target)
				}
				if !want[d.SubmissionID] {
					t.Errorf("submission %s has a confirmation", d.SubmissionID)
				}
			}
		}
	}
	if len(confirmations) != len(want) {
		t.Fatalf("%d confirmations queued, want %d", len(confirmations), len(want))
	}

	// Wait for every delivery to end, then read what arrived.
	done := func() bool {
		for _, d := range confirmations {
			if d, err := q.Delivery(ctx, d.ID); err != nil || d.Outcome != OutcomeDelivered {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(time.Minute); !done(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			list, _ := q.List(ctx, "site", "form")
			t.Fatalf("confirmations not delivered: %+v", list)
		}
	}
	got := map[string][]mailpittest.Message{} // visitor → messages
	for _, s := range mp.Messages(t) {
		m := mp.Message(t, s.ID)
		if len(m.To) == 1 && !strings.HasSuffix(m.To[0].Address, "example.com") {
			m.Text = strings.ReplaceAll(m.Text, "\r\n", "\n")
			m.HTML = strings.ReplaceAll(m.HTML, "\r\n", "\n")
			got[strings.ToLower(m.To[0].Address)] = append(got[strings.ToLower(m.To[0].Address)], m)
		}
	}
	count := map[string]int{}
	for addr, ms := range got {
		count[addr] = len(ms)
	}
	wantCount := map[string]int{"jane@example.net": 1, "marie@example.net": 1, "john@example.net": 1, "repeat@example.net": 3, "retry@example.net": 1}
	if fmt.Sprint(count) != fmt.Sprint(wantCount) {
		t.Errorf("confirmations per address %v, want %v", count, wantCount)
	}

	if ms := got["jane@example.net"]; len(ms) == 1 {
		m := ms[0]
		if m.Subject != "Danke, <b>x</b>" || m.From.Address != "hub@forms.example.com" ||
			len(m.ReplyTo) != 1 || m.ReplyTo[0].Address != "owner@example.com" ||
			!strings.HasPrefix(m.MessageID, "msg_de_") || !strings.HasSuffix(m.MessageID, "@forms.example.com") {
			t.Errorf("German confirmation %+v", m)
		}
		// RFC 3834: another responder must not answer it.
		if h := mp.Headers(t, m.ID); fmt.Sprint(h["Auto-Submitted"]) != "[auto-generated]" {
			t.Errorf("German confirmation's Auto-Submitted %q", h["Auto-Submitted"])
		}
		if m.Text != "Hallo <b>x</b>,\nThema: Sales" {
			t.Errorf("German text %q", m.Text)
		}
		if !strings.Contains(m.HTML, "Hallo &lt;b&gt;x&lt;/b&gt;,<br>\nThema: Sales") || strings.Contains(m.HTML, "<b>x") {
			t.Errorf("German HTML does not escape the value:\n%s", m.HTML)
		}
	}
	if ms := got["marie@example.net"]; len(ms) == 1 {
		if m := ms[0]; m.Subject != "Merci, Marie" || m.Text != "Hi Marie,\nyou asked about Sales:\nAlpha\nBeta\nBye" {
			t.Errorf("French confirmation: subject %q, text %q; want the English body", m.Subject, m.Text)
		}
	}
	if ms := got["john@example.net"]; len(ms) == 1 {
		if m := ms[0]; m.Subject != "Thanks, John" || !strings.HasPrefix(m.Text, "Hi John,\n") {
			t.Errorf("English confirmation: subject %q, text %q", m.Subject, m.Text)
		}
	}
	for _, d := range confirmations {
		d, _ := q.Delivery(ctx, d.ID)
		wantAttempts := 1
		if d.SubmissionID == "retry" {
			wantAttempts = 2
		}
		if d.Attempts != wantAttempts || len(d.Errors) != wantAttempts-1 {
			t.Errorf("delivery of %s: %d attempts, errors %+v; want %d", d.SubmissionID, d.Attempts, d.Errors, wantAttempts)
		}
	}
}

// TestConfirmationWithoutMailer checks that a hub without SMTP queues no
// confirmation, and says so in its log.
func TestConfirmationWithoutMailer(t *testing.T) {
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	var log bytes.Buffer
	var mu sync.Mutex
	q := openQueueWith(t, db, "", forms{"site/form": confirmForm("form")}, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&lockedWriter{w: &log, mu: &mu}, nil))
	})
	if err := db.CreateSubmission(ctx, confirmation("S1", "form", "jane@example.net", "Jane", "")); err != nil {
		t.Fatal(err)
	}
	list, err := q.List(ctx, "site", "form")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("deliveries %+v, want none", list)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "confirmation e-mail but the hub has no SMTP server") {
		t.Errorf("log:\n%s", log.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestConfirmationCancelled checks that a confirmation is cancelled, not
// retried, once its form stops sending confirmations or its submission is
// gone.
func TestConfirmationCancelled(t *testing.T) {
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	if err := db.CreateSubmission(ctx, confirmation("S1", "form", "jane@example.net", "Jane", "")); err != nil {
		t.Fatal(err)
	}
	without := confirmForm("form")
	without.Settings.Autoresponder = nil
	for _, tt := range []struct {
		name string
		fs   forms
		id   string
	}{
		{"autoresponder removed", forms{"site/form": without}, "S1"},
		{"submission gone", forms{"site/form": confirmForm("form")}, "S2"},
		{"form gone", forms{}, "S1"},
	} {
		q := newQueue(Config{Forms: tt.fs, Submissions: db, MailFrom: "hub@example.com", Mailer: &flakyMailer{failTo: "*", failed: map[string]bool{}}})
		w := &autoresponseWorker{worker[AutoresponseArgs]{q: q}}
		err := w.Work(ctx, &river.Job[AutoresponseArgs]{JobRow: &rivertype.JobRow{ID: 1, Attempt: 1}, Args: AutoresponseArgs{SubmissionID: tt.id, Site: "site", Slug: "form"}})
		var cancel *river.JobCancelError
		if !errors.As(err, &cancel) {
			t.Errorf("%s: Work = %v, want it cancelled", tt.name, err)
		}
	}
}

// TestConfirmationPrunes checks that a queue deletes the budgets of past
// days as it confirms a submission.
func TestConfirmationPrunes(t *testing.T) {
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	today := sqldb.Day(storetest.T0)
	if _, err := db.Writer().ExecContext(ctx, `INSERT INTO autoresponses (site, form, address, day, count) VALUES ('site', 'form', 'old', $1, 3), ('site', 'form', 'yesterday', $2, 1)`, today-2, today-1); err != nil {
		t.Fatal(err)
	}
	q := openQueueWith(t, db, "", forms{"site/form": confirmForm("form")}, func(c *Config) {
		c.Mailer, c.MailFrom = &flakyMailer{failTo: "*", failed: map[string]bool{}}, "hub@example.com"
		c.Now = func() time.Time { return storetest.T0 }
	})
	q.Stop(ctx) // nothing is to be sent
	if err := db.CreateSubmission(ctx, confirmation("S1", "form", "jane@example.net", "Jane", "")); err != nil {
		t.Fatal(err)
	}
	var left []string
	rows, err := db.Reader().QueryContext(ctx, `SELECT address FROM autoresponses WHERE length(address) < 20 ORDER BY address`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		rows.Scan(&a)
		left = append(left, a)
	}
	if fmt.Sprint(left) != "[yesterday]" {
		t.Errorf("budgets left %v, want [yesterday]", left)
	}
}
