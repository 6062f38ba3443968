package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// testMailRecipients asks an address to take a workspace's notifications
// once, confirms it by its link's hash for that workspace alone, keeps a
// workspace's mail quota of the day, and prunes past days' counts.
func testMailRecipients(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	const ws, addr = accounts.DefaultWorkspace, "Stranger@Example.org"
	if r, err := db.MailRecipient(ctx, ws, addr); err != nil || r != (sqldb.MailRecipient{}) {
		t.Errorf("MailRecipient of an unknown address = %+v, %v", r, err)
	}
	for i, want := range []bool{true, false} {
		if asked, err := db.AskMailRecipient(ctx, ws, addr, T0); err != nil || asked != want {
			t.Errorf("AskMailRecipient %d = %v, %v; want %v", i+1, asked, err, want)
		}
	}
	if asked, err := db.AskMailRecipient(ctx, "other", "stranger@example.org", T0); err != nil || !asked {
		t.Errorf("AskMailRecipient for another workspace = %v, %v; want true", asked, err)
	}
	if err := db.SetMailRecipientToken(ctx, ws, addr, "old", T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMailRecipientToken(ctx, ws, "stranger@example.org", "hash", T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MailRecipientLink(ctx, "old", T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a replaced link: %v", err)
	}
	if _, err := db.ConfirmMailRecipient(ctx, "hash", T0.Add(2*time.Hour)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("an expired link confirms: %v", err)
	}
	if got, err := db.MailRecipientLink(ctx, "hash", T0); err != nil || got != ws {
		t.Errorf("MailRecipientLink = %q, %v", got, err)
	}
	if got, err := db.ConfirmMailRecipient(ctx, "hash", T0); err != nil || got != ws {
		t.Errorf("ConfirmMailRecipient = %q, %v", got, err)
	}
	if _, err := db.ConfirmMailRecipient(ctx, "hash", T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a link used twice: %v", err)
	}
	if r, _ := db.MailRecipient(ctx, ws, addr); !r.Confirmed || !r.Asked || r.Member {
		t.Errorf("MailRecipient after confirming = %+v", r)
	}
	if r, _ := db.MailRecipient(ctx, "other", addr); r.Confirmed {
		t.Error("a confirmation holds for another workspace")
	}
	if err := db.SetMailRecipientToken(ctx, ws, addr, "again", T0.Add(time.Hour)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a new link for a confirmed address: %v", err)
	}

	if err := db.SetQuota(ctx, ws, accounts.Quota{MailPerDay: 5}); err != nil {
		t.Fatal(err)
	}
	if w, _ := db.Workspace(ctx, ws); w.Quota.MailLimit() != 5 {
		t.Errorf("the mail quota read back: %+v", w.Quota)
	}
	day := sqldb.Day(T0)
	for _, step := range []struct {
		n    int64
		want bool
	}{{3, true}, {3, false}, {2, true}, {1, false}} {
		if ok, err := db.TakeMail(ctx, ws, day, step.n, 5); err != nil || ok != step.want {
			t.Errorf("TakeMail(%d) = %v, %v; want %v", step.n, ok, err, step.want)
		}
	}
	if n, err := db.MailSent(ctx, ws, day); err != nil || n != 5 {
		t.Errorf("MailSent = %d, %v; want 5", n, err)
	}
	if ok, _ := db.TakeMail(ctx, ws, day+1, 1, 5); !ok {
		t.Error("the next day's quota is spent")
	}
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		_, err := sqldb.PruneAutoresponses(ctx, tx, day+2)
		return err
	})
	if err := db.CreateSubmission(ctx, Submission("prune")); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.MailSent(ctx, ws, day); n != 0 {
		t.Errorf("a day before yesterday still counts %d", n)
	}
}
