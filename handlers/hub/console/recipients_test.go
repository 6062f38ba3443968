package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// TestRecipientLinkConfirmsOnlyWhenPosted opens the link that asks an
// address to take a workspace's notifications as a mail scanner would:
// the page confirms nothing; its button does, once, for that workspace.
func TestRecipientLinkConfirmsOnlyWhenPosted(t *testing.T) {
	tc := newConsole(t, nil)
	ctx := context.Background()
	const addr = "stranger@example.org"
	if asked, err := tc.db.AskMailRecipient(ctx, accounts.DefaultWorkspace, addr, time.Now()); !asked || err != nil {
		t.Fatalf("AskMailRecipient: %v, %v", asked, err)
	}
	token := accounts.NewLinkToken()
	if err := tc.db.SetMailRecipientToken(ctx, accounts.DefaultWorkspace, addr, accounts.HashToken(token), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	link := console.RecipientsPath + "/" + token
	confirmed := func() bool {
		r, err := tc.db.MailRecipient(ctx, accounts.DefaultWorkspace, addr)
		if err != nil {
			t.Fatal(err)
		}
		return r.Confirmed
	}
	b := tc.browser()
	if page := b.get(link); page.status != http.StatusOK || !strings.Contains(page.body, "Yes, send them to me") || confirmed() {
		t.Fatalf("the link's page: %d, confirmed %v\n%s", page.status, confirmed(), page.body)
	}
	if res := b.do(http.MethodPost, link, url.Values{"_csrf": {b.csrf(link)}}, nil); res.status != http.StatusOK || !strings.Contains(res.body, "Confirmed") {
		t.Fatalf("confirming: %d %s", res.status, res.body)
	}
	if !confirmed() {
		t.Error("the address is not confirmed after the post")
	}
	if r, _ := tc.db.MailRecipient(ctx, "elsewhere", addr); r.Confirmed {
		t.Error("a confirmation for one workspace counts for another")
	}
	if res := tc.browser().get(link); res.status != http.StatusNotFound {
		t.Errorf("the link used again: %d, want 404", res.status)
	}
}
