package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// files is a Files of fixed bodies.
type files map[string][]byte

func (f files) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	b, ok := f[key]
	if !ok {
		return nil, hub.ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// mailForm is a form whose owners are e-mailed.
func mailForm() *hub.Form {
	return &hub.Form{Site: "site", Slug: "form",
		Schema: &hubclient.Schema{Title: "Contact us", Fields: []hubclient.Field{
			{Name: "name", Type: "text", Label: "Your name"},
			{Name: "email", Type: "email", Label: "Email"},
			{Name: "topic", Type: "select", Label: "Topic", Options: []hubclient.Option{{Value: "sales", Label: "Sales"}}},
			{Name: "tags", Type: "checkboxes", Label: "Tags", Options: []hubclient.Option{{Value: "a", Label: "Alpha"}, {Value: "b", Label: "Beta"}}},
			{Name: "ok", Type: "checkbox", Label: "Agreed"},
			{Name: "files", Type: "file", Label: "Files", Multiple: true},
			{Name: "_hp", Type: "text", Label: "Leave empty"},
		}, Calculations: []hubclient.Calculation{{Name: "total", Label: "Total", Expr: json.RawMessage(`35`), Format: "currency", Currency: "EUR"}}},
		Settings: hub.Settings{Notify: &hub.Notify{Email: []string{"owner@example.com", "two@example.org"}, ReplyToField: "email"}},
	}
}

// TestEmailSent sends the e-mail of a submission with a file through a
// real SMTP server and reads it back: labels, option labels, reply-to, the
// file attached, and nothing of the honeypot.
func TestEmailSent(t *testing.T) {
	mp := mailpittest.Start(t)
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	mailer, err := NewSMTP(mp.URL(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ownSite(t, db, "acme", "site", "owner@example.com", "two@example.org")
	pdf := bytes.Repeat([]byte("%PDF"), 1234/4)
	pdf = append(pdf, "xx"...)
	q := openQueueWith(t, db, "", forms{"site/form": mailForm()}, func(c *Config) {
		c.Mailer, c.MailFrom, c.Files = mailer, "hub@forms.example.com", files{"up/cv": pdf}
	})
	u := storetest.Upload("up/cv")
	storetest.MustCreateUpload(t, db, u)
	s := storetest.Submission("S1", storetest.Attachment(u))
	s.Payload = json.RawMessage(`{"name":"Jane","email":"jane@example.net","topic":"sales","tags":["a","b"],"ok":true,"_hp":"bot text","extra":"kept"}`)
	s.Calculations = map[string]any{"total": 35.0}
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	var list []mailpittest.Summary
	for deadline := time.Now().Add(30 * time.Second); len(list) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		list = mp.Messages(t)
	}
	if len(list) != 1 {
		d, _ := q.List(ctx, "site", "form")
		t.Fatalf("%d messages; deliveries %+v", len(list), d)
	}
	m := mp.Message(t, list[0].ID)
	// Mail has CRLF line ends.
	m.Text = strings.ReplaceAll(m.Text, "\r\n", "\n")
	if m.Subject != "New submission: Contact us" || m.From.Address != "hub@forms.example.com" ||
		len(m.To) != 2 || m.To[0].Address != "owner@example.com" || m.To[1].Address != "two@example.org" ||
		len(m.ReplyTo) != 1 || m.ReplyTo[0].Address != "jane@example.net" {
		t.Errorf("message %+v", m)
	}
	for _, want := range []string{"Your name:\n  Jane", "Email:\n  jane@example.net", "Topic:\n  Sales", "Tags:\n  Alpha\n  Beta", "Agreed:\n  yes", "extra:\n  kept", "Total:\n  € 35.00", "cv.pdf (application/pdf, 1234 bytes)", "Submission S1"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if strings.Contains(m.Text, "bot text") || strings.Contains(m.Text, "Leave empty") {
		t.Errorf("text shows the honeypot:\n%s", m.Text)
	}
	if !strings.HasPrefix(m.MessageID, "msg_S1_") || !strings.HasSuffix(m.MessageID, "@forms.example.com") {
		t.Errorf("Message-ID %q", m.MessageID)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].FileName != "cv.pdf" || m.Attachments[0].ContentType != "application/pdf" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	if got := mp.Part(t, m.ID, m.Attachments[0].PartID); !bytes.Equal(got, pdf) {
		t.Errorf("attachment differs: %d bytes, want %d", len(got), len(pdf))
	}
}

// TestEmailListsLargeFiles checks that files over the limit are listed,
// not attached.
func TestEmailListsLargeFiles(t *testing.T) {
	q := newQueue(Config{MailFrom: "hub@example.com", MaxAttach: 1000, Files: files{"up/cv": make([]byte, 1234)}})
	u := storetest.Upload("up/cv")
	s := storetest.Submission("S1", storetest.Attachment(u))
	m, err := q.message(context.Background(), mailForm(), s, mailForm().Settings.Notify.Email, 7)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Content-Disposition: attachment") {
		t.Error("a file over the limit is attached")
	}
	if !strings.Contains(b.String(), "They are not attached (1234 bytes together, more than 1000)") {
		t.Errorf("message does not say the files are not attached:\n%s", b.String())
	}
}

func TestNewSMTPRefuses(t *testing.T) {
	for _, u := range []string{"", "http://host", "smtp://", "smtp://host:99999", "smtp://host?tls=maybe", "smtp://u:secretpw@host:x"} {
		_, err := NewSMTP(u, time.Second)
		if err == nil {
			t.Errorf("NewSMTP(%q) accepted", u)
		} else if strings.Contains(err.Error(), "secretpw") {
			t.Errorf("NewSMTP(%q) error repeats the password: %v", u, err)
		}
	}
	for _, u := range []string{"smtp://host", "smtps://u:p@host:465", "smtp://127.0.0.1:1025?tls=none"} {
		if _, err := NewSMTP(u, time.Second); err != nil {
			t.Errorf("NewSMTP(%q): %v", u, err)
		}
	}
}
