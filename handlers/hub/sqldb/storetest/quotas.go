package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testQuotas sets a workspace's quota and counts its usage: submissions
// since the month began, and the bytes of the files they claimed.
func testQuotas(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.SetQuota(ctx, accounts.DefaultWorkspace, accounts.Quota{SubmissionsPerMonth: 100, StoredBytes: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetQuota(ctx, "nowhere", accounts.Quota{}); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("SetQuota of a missing workspace: %v", err)
	}
	if w, err := db.Workspace(ctx, accounts.DefaultWorkspace); err != nil || w.Quota != (accounts.Quota{SubmissionsPerMonth: 100, StoredBytes: 1 << 20}) {
		t.Errorf("the default workspace's quota = %+v, %v", w.Quota, err)
	}
	if _, _, err := db.SiteQuota(ctx, "site"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("SiteQuota of an unclaimed site: %v", err)
	}
	if _, err := db.ClaimSite(ctx, "site", accounts.DefaultWorkspace, T0); err != nil {
		t.Fatal(err)
	}
	if ws, q, err := db.SiteQuota(ctx, "site"); err != nil || ws != accounts.DefaultWorkspace || q.SubmissionsPerMonth != 100 {
		t.Errorf("SiteQuota(site) = %q %+v %v", ws, q, err)
	}
	// One submission last month with a file, two this month, one of them
	// with a file; another site's submission counts for nothing.
	month := accounts.MonthStart(T0)
	for i, at := range []time.Time{month.Add(-time.Hour), month, month.Add(time.Hour)} {
		s := Submission(string(rune('a' + i)))
		s.CreatedAt = at
		if i != 1 {
			u := Upload("uploads/" + s.ID)
			MustCreateUpload(t, db, u)
			s.Attachments = append(s.Attachments, Attachment(u))
		}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	other := Submission("z")
	other.Site, other.CreatedAt = "elsewhere", month
	if err := db.CreateSubmission(ctx, other); err != nil {
		t.Fatal(err)
	}
	u, err := db.WorkspaceUsage(ctx, accounts.DefaultWorkspace, month)
	if err != nil || u != (accounts.Usage{Submissions: 2, StoredBytes: 2 * 1234}) {
		t.Errorf("WorkspaceUsage = %+v, %v; want 2 submissions and 2468 bytes", u, err)
	}
	// A submission deleted and not purged yet counts for nothing, nor
	// does its file; restored, it counts again.
	if _, err := db.TrashSubmissions(ctx, "site", "form", []string{"c"}, T0); err != nil {
		t.Fatal(err)
	}
	if u, err := db.WorkspaceUsage(ctx, accounts.DefaultWorkspace, month); err != nil || u != (accounts.Usage{Submissions: 1, StoredBytes: 1234}) {
		t.Errorf("WorkspaceUsage with one deleted = %+v, %v; want 1 submission and 1234 bytes, last month's file", u, err)
	}
	if n, err := db.UndeleteSubmissions(ctx, "site", "form", []string{"c"}, T0); err != nil || n != 1 {
		t.Fatalf("UndeleteSubmissions = %d, %v", n, err)
	}
	if u, err := db.WorkspaceUsage(ctx, accounts.DefaultWorkspace, month); err != nil || u != (accounts.Usage{Submissions: 2, StoredBytes: 2 * 1234}) {
		t.Errorf("WorkspaceUsage once restored = %+v, %v; want 2 submissions and 2468 bytes", u, err)
	}
	q := accounts.Quota{SubmissionsPerMonth: 3, StoredBytes: 2500}
	if q.Over(u, 0) || !q.Over(u, 100) || !q.Over(accounts.Usage{Submissions: 3}, 0) || (accounts.Quota{}).Over(u, 1<<40) {
		t.Error("Quota.Over is wrong")
	}
}
