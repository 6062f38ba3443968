package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// TestDraftLinkMailed saves a draft asking for its link, on each database:
// the link arrives by e-mail, with a token of its own that opens the draft
// until the next save, which the queue never held; an address gets
// DraftLinksPerDay links a day, and the draft is saved all the same beyond.
func TestDraftLinkMailed(t *testing.T) {
	mp := mailpittest.Start(t)
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			smtp, err := NewSMTP(mp.URL(), 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			form := confirmForm("form")
			form.Schema.I18n.Translations = map[string]hubclient.Translation{"de": {Title: "Kontakt"}}
			q := openQueueWith(t, db, pgURL, forms{"site/form": form}, func(c *Config) {
				c.Mailer, c.MailFrom, c.Drafts = smtp, "Acme forms <hub@forms.example.com>", db
				c.Now = func() time.Time { return storetest.T0 }
			})
			db.SetDraftHook(q.DraftHook())
			to := name + "@example.net"

			d := hub.Draft{
				ID: hub.NewID(storetest.T0), Site: "site", Slug: "form", Payload: json.RawMessage(`{"name":"Ada"}`),
				Attachments: []hubclient.Attachment{}, Locale: "de", Email: to, ResumeURL: "https://app.example/apply?x=1",
				CreatedAt: storetest.T0, UpdatedAt: storetest.T0, ExpiresAt: storetest.T0.Add(30 * 24 * time.Hour),
			}
			saved := hub.NewDraftToken()
			mailed, err := db.CreateDraft(ctx, d, hub.DraftHash(saved))
			if err != nil || !mailed {
				t.Fatalf("CreateDraft: mailed %v, %v", mailed, err)
			}

			// newLink waits for the nth link to the address, and checks it
			// before the next save retires its token.
			tokens := map[string]bool{}
			newLink := func(n int) {
				t.Helper()
				var links []string
				for deadline := time.Now().Add(time.Minute); len(links) < n; time.Sleep(50 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("%d links arrived, want %d", len(links), n)
					}
					links = links[:0]
					for _, s := range mp.Messages(t) {
						m := mp.Message(t, s.ID)
						if len(m.To) != 1 || !strings.EqualFold(m.To[0].Address, to) {
							continue
						}
						if m.Subject != "Continue Kontakt" || !strings.Contains(m.Text, "until 21 December 2026") {
							t.Errorf("link's e-mail: subject %q, text %q", m.Subject, m.Text)
						}
						link := regexp.MustCompile(`https://app\.example/apply\?\S+`).FindString(m.Text)
						if !strings.Contains(m.HTML, `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`) {
							t.Errorf("HTML part does not link %s:\n%s", link, m.HTML)
						}
						links = append(links, link)
					}
				}
				for _, link := range links {
					token := regexp.MustCompile(`draft=([A-Za-z0-9_-]+)`).FindStringSubmatch(link)
					if token == nil || !strings.Contains(link, "x=1") {
						t.Fatalf("link %q: want the page's query and a draft's token", link)
					}
					if tokens[token[1]] {
						continue // checked when it came
					}
					if token[1] == saved {
						t.Errorf("link %q repeats the saved token", link)
					}
					tokens[token[1]] = true
					if got, err := db.DraftByToken(ctx, "site", "form", hub.DraftHash(token[1]), storetest.T0); err != nil || got.ID != d.ID {
						t.Errorf("the link's token finds %v, %v; want the draft", got.ID, err)
					}
					var jobs int
					db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE CAST(args AS TEXT) LIKE '%'||$1||'%'`, token[1]).Scan(&jobs)
					if jobs != 0 {
						t.Errorf("the queue holds the link's token")
					}
				}
				if len(tokens) != n {
					t.Errorf("%d links carry %d tokens, want one each", n, len(tokens))
				}
			}
			newLink(1)
			for i := 2; i <= DraftLinksPerDay+1; i++ {
				d.Email = to
				if i%2 == 0 {
					d.Email = strings.ToUpper(to) // the same address
				}
				next := hub.NewDraftToken()
				mailed, err := db.UpdateDraft(ctx, d, hub.DraftHash(saved), hub.DraftHash(next))
				if err != nil || mailed != (i <= DraftLinksPerDay) {
					t.Errorf("save %d: mailed %v, %v; want %v", i, mailed, err, i <= DraftLinksPerDay)
				}
				saved = next
				if i <= DraftLinksPerDay {
					newLink(i)
				}
			}
			// Each save retired the tokens before it, those of the links
			// mailed before it among them.
			for token := range tokens {
				if _, err := db.DraftByToken(ctx, "site", "form", hub.DraftHash(token), storetest.T0); !errors.Is(err, hub.ErrNotFound) {
					t.Errorf("a link's token after the last save: %v, want ErrNotFound", err)
				}
			}
		})
	}
}
