package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// ownSite makes the users of members members of a new workspace ws, the
// first its admin, which owns site.
func ownSite(t *testing.T, db *sqldb.DB, ws, site string, members ...string) {
	t.Helper()
	ctx := context.Background()
	for i, m := range members {
		if err := db.CreateUser(ctx, accounts.User{Email: m, PasswordHash: "$x", CreatedAt: storetest.T0}); err != nil && !errors.Is(err, accounts.ErrExists) {
			t.Fatal(err)
		}
		if i == 0 {
			if err := db.CreateWorkspace(ctx, ws, m, storetest.T0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := db.SetMember(ctx, accounts.Member{Workspace: ws, Email: m, Role: accounts.Viewer, CreatedAt: storetest.T0}); err != nil {
			t.Fatal(err)
		}
	}
	if owner, err := db.ClaimSite(ctx, site, ws, storetest.T0); err != nil || owner != ws {
		t.Fatalf("ClaimSite(%s, %s) = %q, %v", site, ws, owner, err)
	}
}

// inboxes returns the messages Mailpit holds by recipient, lower-cased.
func inboxes(t *testing.T, mp *mailpittest.Server) map[string][]mailpittest.Message {
	out := map[string][]mailpittest.Message{}
	for _, s := range mp.Messages(t) {
		m := mp.Message(t, s.ID)
		m.Text = strings.ReplaceAll(m.Text, "\r\n", "\n")
		for _, to := range m.To {
			a := strings.ToLower(to.Address)
			out[a] = append(out[a], m)
		}
	}
	return out
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// settled reports whether no delivery of site/slug is pending or retrying.
func settled(t *testing.T, q *Queue, site, slug string) bool {
	list, err := q.List(context.Background(), site, slug)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		if d.Outcome == OutcomePending || d.Outcome == OutcomeRetrying {
			return false
		}
	}
	return true
}

// TestHubIsNotAMailRelay makes a form whose notify.email lists 20
// strangers beside a member of its workspace, with a confirmation e-mail
// of the owner's own text, and sends it anonymous submissions, on each
// database, through a real SMTP server: the member gets each
// notification; each stranger gets one request to confirm, in the hub's
// words alone, and nothing of the second submission; a stranger who
// confirms gets the next notification, for this workspace alone.
func TestHubIsNotAMailRelay(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			mp := mailpittest.Start(t)
			ctx := context.Background()
			db, pgURL := open(t)
			smtp, err := NewSMTP(mp.URL(), 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			ownSite(t, db, "spam", "site", "member@example.com")
			ownSite(t, db, "other", "elsewhere", "someone@example.com")
			var strangers []string
			for i := range 20 {
				strangers = append(strangers, fmt.Sprintf("stranger%d@example.org", i))
			}
			form := mailForm()
			form.Settings.Notify.Email = append([]string{"member@example.com"}, strangers...)
			form.Settings.Notify.ReplyToField = ""
			// The other workspace's form lists stranger0 too.
			other := mailForm()
			other.Site, other.Settings.Notify.Email = "elsewhere", []string{"stranger0@example.org"}
			q := openQueueWith(t, db, pgURL, forms{"site/form": form, "elsewhere/form": other}, func(c *Config) {
				c.Mailer, c.MailFrom = smtp, "hub@forms.example.com"
			})
			submit := func(id, site string) {
				t.Helper()
				s := storetest.Submission(id)
				s.Site = site
				s.Payload = json.RawMessage(`{"name":"BUY CHEAP PILLS at spam.example"}`)
				if err := db.CreateSubmission(ctx, s); err != nil {
					t.Fatal(err)
				}
			}

			submit("S1", "site")
			waitFor(t, "the notification and 20 requests", func() bool {
				in := inboxes(t, mp)
				return len(in["member@example.com"]) == 1 && len(in["stranger19@example.org"]) == 1 && settled(t, q, "site", "form")
			})
			in := inboxes(t, mp)
			if m := in["member@example.com"][0]; len(m.To) != 1 || !strings.Contains(m.Text, "BUY CHEAP PILLS") {
				t.Errorf("the member's notification: to %v, text %q", m.To, m.Text)
			}
			var link string
			for _, a := range strangers {
				ms := in[a]
				if len(ms) != 1 {
					t.Fatalf("%s got %d messages, want one request", a, len(ms))
				}
				m := ms[0]
				if m.Subject != "Do you want the submissions of a form by e-mail?" || len(m.To) != 1 ||
					strings.Contains(m.Text, "PILLS") || strings.Contains(m.Text, "Contact us") || strings.Contains(m.Text, "spam") {
					t.Errorf("%s's request: subject %q, to %v, text %q", a, m.Subject, m.To, m.Text)
				}
				if a == "stranger0@example.org" {
					link = regexp.MustCompile(`https://hub\.example\.com/console/mail-recipients/([A-Za-z0-9_-]+)`).FindString(m.Text)
				}
			}
			if link == "" {
				t.Fatalf("stranger0's request holds no link:\n%s", in["stranger0@example.org"][0].Text)
			}
			list, _ := q.List(ctx, "site", "form")
			var notify Delivery
			for _, d := range list {
				if d.Kind == (NotifyArgs{}).Kind() {
					notify = d
				}
			}
			if notify.Outcome != OutcomeDelivered || !strings.Contains(notify.Target, "20 addresses waiting for confirmation") {
				t.Errorf("the notification's delivery: %+v", notify)
			}

			// A second submission: the member alone hears of it.
			submit("S2", "site")
			waitFor(t, "the second notification", func() bool {
				return len(inboxes(t, mp)["member@example.com"]) == 2 && settled(t, q, "site", "form")
			})
			in = inboxes(t, mp)
			for _, a := range strangers {
				if len(in[a]) != 1 {
					t.Errorf("%s got %d messages after a second submission, want its one request", a, len(in[a]))
				}
			}

			// stranger0 confirms, for the workspace spam alone.
			token := link[strings.LastIndexByte(link, '/')+1:]
			if ws, err := db.ConfirmMailRecipient(ctx, accounts.HashToken(token), time.Now()); err != nil || ws != "spam" {
				t.Fatalf("ConfirmMailRecipient = %q, %v", ws, err)
			}
			if _, err := db.ConfirmMailRecipient(ctx, accounts.HashToken(token), time.Now()); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("a link used twice: %v", err)
			}
			submit("S3", "site")
			submit("O1", "elsewhere")
			waitFor(t, "the third notification", func() bool {
				return len(inboxes(t, mp)["member@example.com"]) == 3 && settled(t, q, "site", "form") && settled(t, q, "elsewhere", "form")
			})
			in = inboxes(t, mp)
			got := in["stranger0@example.org"]
			var notified, asked int
			for _, m := range got {
				switch {
				case strings.HasPrefix(m.Subject, "New submission"):
					notified++
				case strings.HasPrefix(m.Subject, "Do you want"):
					asked++
				}
			}
			// The notification of S3, and the request of workspace other,
			// whose form's submission does not reach it.
			if notified != 1 || asked != 2 || len(got) != 3 {
				t.Errorf("stranger0 after confirming: %d notifications, %d requests, %d messages; want 1, 2, 3", notified, asked, len(got))
			}
			if len(in["stranger1@example.org"]) != 1 {
				t.Errorf("stranger1 got %d messages, want its one request", len(in["stranger1@example.org"]))
			}
		})
	}
}

// recordingMailer counts the messages sent to each address.
type recordingMailer struct {
	mu   sync.Mutex
	sent map[string]int
}

func (r *recordingMailer) Send(_ context.Context, m *gomail.Msg) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range m.GetAddrHeader(gomail.HeaderTo) {
		r.sent[strings.ToLower(a.Address)]++
	}
	return nil
}

func (r *recordingMailer) count(a string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent[a]
}

// TestConfirmationBudgetIsTheHubs has one address submit to five forms
// of two workspaces, twice each, on each database: it gets
// AutoresponsesPerDay confirmations, not that many per form.
func TestConfirmationBudgetIsTheHubs(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			ownSite(t, db, "aaa", "a", "ann@example.com")
			ownSite(t, db, "bbb", "b", "bob@example.com")
			fs := forms{}
			for _, key := range []string{"a/f1", "a/f2", "a/f3", "b/f1", "b/f2"} {
				site, slug, _ := strings.Cut(key, "/")
				f := confirmForm(slug)
				f.Site, f.Settings.Notify = site, nil
				fs[key] = f
			}
			mailer := &recordingMailer{sent: map[string]int{}}
			q := openQueueWith(t, db, pgURL, fs, func(c *Config) { c.Mailer, c.MailFrom = mailer, "hub@forms.example.com" })
			for i := range 2 {
				for key := range fs {
					site, slug, _ := strings.Cut(key, "/")
					s := confirmation(fmt.Sprintf("%s-%s-%d", site, slug, i), slug, "target@example.net", "T", "")
					s.Site = site
					if err := db.CreateSubmission(ctx, s); err != nil {
						t.Fatal(err)
					}
				}
			}
			waitFor(t, "the confirmations", func() bool {
				for key := range fs {
					site, slug, _ := strings.Cut(key, "/")
					if !settled(t, q, site, slug) {
						return false
					}
				}
				return mailer.count("target@example.net") >= AutoresponsesPerDay
			})
			time.Sleep(200 * time.Millisecond)
			if n := mailer.count("target@example.net"); n != AutoresponsesPerDay {
				t.Errorf("%d confirmations to one address from 5 forms, want %d", n, AutoresponsesPerDay)
			}
		})
	}
}

// TestWorkspaceMailQuota gives a workspace a quota of 3 e-mails a day, on
// each database: its form's fifth submission of the day is neither
// notified nor confirmed, the delivery says why, another workspace mails
// on, and a higher quota lets the next through.
func TestWorkspaceMailQuota(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			ownSite(t, db, "small", "site", "owner@example.com")
			ownSite(t, db, "big", "other", "boss@example.com")
			if err := db.SetQuota(ctx, "small", accounts.Quota{MailPerDay: 3}); err != nil {
				t.Fatal(err)
			}
			f := mailForm()
			f.Settings.Notify.Email = []string{"owner@example.com"}
			g := mailForm()
			g.Site, g.Settings.Notify.Email = "other", []string{"boss@example.com"}
			mailer := &recordingMailer{sent: map[string]int{}}
			q := openQueueWith(t, db, pgURL, forms{"site/form": f, "other/form": g}, func(c *Config) { c.Mailer, c.MailFrom = mailer, "hub@forms.example.com" })
			submit := func(id, site string) {
				t.Helper()
				s := storetest.Submission(id)
				s.Site = site
				if err := db.CreateSubmission(ctx, s); err != nil {
					t.Fatal(err)
				}
				waitFor(t, "the delivery of "+id, func() bool { return settled(t, q, site, "form") })
			}
			for i := range 5 {
				submit(fmt.Sprintf("S%d", i), "site")
				submit(fmt.Sprintf("O%d", i), "other")
			}
			if n, m := mailer.count("owner@example.com"), mailer.count("boss@example.com"); n != 3 || m != 5 {
				t.Errorf("owner got %d notifications, boss %d; want 3 within the quota and 5", n, m)
			}
			if n, err := db.MailSent(ctx, "small", sqldb.Day(time.Now())); err != nil || n != 3 {
				t.Errorf("MailSent(small) = %d, %v; want 3", n, err)
			}
			list, _ := q.List(ctx, "site", "form")
			var over int
			for _, d := range list {
				if d.Outcome == OutcomeCancelled && len(d.Errors) > 0 && strings.Contains(d.Errors[0].Error, "mail quota") {
					over++
				}
			}
			if over != 2 {
				t.Errorf("%d deliveries cancelled for the quota, want 2: %+v", over, list)
			}
			if err := db.SetQuota(ctx, "small", accounts.Quota{MailPerDay: 10}); err != nil {
				t.Fatal(err)
			}
			submit("S5", "site")
			if n := mailer.count("owner@example.com"); n != 4 {
				t.Errorf("owner got %d notifications after the quota was raised, want 4", n)
			}
		})
	}
}

// TestNotificationAttachesUploadsAsSafeTypes sends a submission whose
// files claim to be a page, an SVG, a script and a PNG through a real
// SMTP server and reads the message back: only the PNG keeps its type,
// the others come as application/octet-stream, whole.
func TestNotificationAttachesUploadsAsSafeTypes(t *testing.T) {
	mp := mailpittest.Start(t)
	ctx := context.Background()
	db, _ := databases(t)["sqlite"](t)
	ownSite(t, db, "acme", "site", "owner@example.com")
	mailer, err := NewSMTP(mp.URL(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	f := mailForm()
	f.Settings.Notify.Email = []string{"owner@example.com"}
	uploads := map[string]string{ // file name → claimed type
		"page.html": "text/html; charset=utf-8", "logo.svg": "image/svg+xml", "app.js": "application/javascript", "photo.png": "image/png",
	}
	content := files{}
	var atts []hubclient.Attachment
	for fn, mt := range uploads {
		u := storetest.Upload("up/" + fn)
		u.Filename, u.MIME, u.Size = fn, mt, int64(len(fn)+10)
		content[u.Key] = []byte(strings.Repeat("x", 10) + fn)
		storetest.MustCreateUpload(t, db, u)
		atts = append(atts, storetest.Attachment(u))
	}
	openQueueWith(t, db, "", forms{"site/form": f}, func(c *Config) {
		c.Mailer, c.MailFrom, c.Files = mailer, "hub@forms.example.com", content
	})
	if err := db.CreateSubmission(ctx, storetest.Submission("S1", atts...)); err != nil {
		t.Fatal(err)
	}
	var list []mailpittest.Summary
	waitFor(t, "the notification", func() bool { list = mp.Messages(t); return len(list) == 1 })
	m := mp.Message(t, list[0].ID)
	if len(m.Attachments) != len(uploads) {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	for _, a := range m.Attachments {
		want := "application/octet-stream"
		if a.FileName == "photo.png" {
			want = "image/png"
		}
		if a.ContentType != want {
			t.Errorf("%s attached as %s, want %s", a.FileName, a.ContentType, want)
		}
		if got := mp.Part(t, m.ID, a.PartID); !bytes.Equal(got, content["up/"+a.FileName]) {
			t.Errorf("%s arrived as %q", a.FileName, got)
		}
	}
}

// TestStrangersAreNotMailedAgainOnRequest has an owner ask every delivery
// of a submission to be sent again, on each database: the visitor's
// confirmation e-mail and the request to confirm an address went out once
// and stay so (ErrSentOnce), while the owners' own e-mail goes again. An
// owner cannot make the hub a relay by asking again and again.
func TestStrangersAreNotMailedAgainOnRequest(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			ownSite(t, db, "aaa", "site", "owner@example.com")
			mailer := &recordingMailer{sent: map[string]int{}}
			q := openQueueWith(t, db, pgURL, forms{"site/f": confirmForm("f")}, func(c *Config) { c.Mailer, c.MailFrom = mailer, "hub@forms.example.com" })
			if err := db.CreateSubmission(ctx, confirmation("s1", "f", "visitor@example.net", "V", "")); err != nil {
				t.Fatal(err)
			}
			sent := func() bool {
				return settled(t, q, "site", "f") && mailer.count("visitor@example.net") > 0 && mailer.count("two@example.org") > 0
			}
			waitFor(t, "the first e-mails", sent)
			list, err := q.List(ctx, "site", "f")
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]bool{}
			for _, d := range list {
				kinds[d.Kind] = true
				_, err := q.Retry(ctx, d.ID)
				switch d.Kind {
				case AutoresponseArgs{}.Kind(), ConfirmRecipientArgs{}.Kind():
					if !errors.Is(err, ErrSentOnce) {
						t.Errorf("retry of the %s delivery: %v, want ErrSentOnce", d.Kind, err)
					}
				default:
					if err != nil {
						t.Errorf("retry of the %s delivery: %v", d.Kind, err)
					}
				}
			}
			if len(kinds) != 3 {
				t.Fatalf("deliveries of kinds %v, want the owners' e-mail, the confirmation and the request to confirm", kinds)
			}
			waitFor(t, "the owners' e-mail again", func() bool { return settled(t, q, "site", "f") && mailer.count("owner@example.com") == 2 })
			time.Sleep(200 * time.Millisecond)
			for _, a := range []string{"visitor@example.net", "two@example.org"} {
				if n := mailer.count(a); n != 1 {
					t.Errorf("%s got %d e-mails, want 1", a, n)
				}
			}
		})
	}
}
