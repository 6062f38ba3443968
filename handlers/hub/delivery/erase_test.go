package delivery

import (
	"context"
	"slices"
	"testing"

	"github.com/riverqueue/river/rivertype"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

// TestDeletePending deletes the deliveries not yet made of some
// submissions, on a queue that does not work them: the others' stay, and
// one cancelled stays listed.
func TestDeletePending(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{
				Webhooks: []hub.Webhook{{URL: "https://a.example/hook", Secret: secret}, {URL: "https://b.example/hook", Secret: secret}},
			}}}
			cfg := Config{Forms: fs, Submissions: db}
			var (
				q   *Queue
				err error
			)
			if pgURL == "" {
				q, err = OpenSQLite(ctx, db, cfg, Options{})
			} else {
				q, err = OpenPostgres(ctx, pgURL, cfg, Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(q.Close)
			db.SetSubmissionHook(q.Hook())
			for _, id := range []string{"S1", "S2", "S3", "S4"} {
				if err := db.CreateSubmission(ctx, storetest.Submission(id)); err != nil {
					t.Fatal(err)
				}
			}
			bySubmission := func() map[string][]string {
				t.Helper()
				list, err := q.List(ctx, "site", "form")
				if err != nil {
					t.Fatal(err)
				}
				out := map[string][]string{}
				for _, d := range list {
					out[d.SubmissionID] = append(out[d.SubmissionID], d.Outcome)
				}
				return out
			}
			// S4's deliveries are cancelled: no longer pending.
			for _, d := range mustList(t, q) {
				if d.SubmissionID == "S4" {
					if _, err := q.river.(interface {
						JobCancel(context.Context, int64) (*rivertype.JobRow, error)
					}).JobCancel(ctx, d.ID); err != nil {
						t.Fatal(err)
					}
				}
			}

			n, err := q.DeletePending(ctx, []string{"S1", "S3", "S4", "nope"})
			if err != nil || n != 4 {
				t.Fatalf("DeletePending(S1, S3, S4 cancelled, nope) = %d, %v; want 4", n, err)
			}
			left := bySubmission()
			if len(left) != 2 || len(left["S2"]) != 2 || !slices.Equal(left["S4"], []string{OutcomeCancelled, OutcomeCancelled}) {
				t.Errorf("deliveries left %v; want S2's two pending and S4's two cancelled", left)
			}
			if n, err := q.DeletePending(ctx, nil); err != nil || n != 0 {
				t.Errorf("DeletePending(none) = %d, %v", n, err)
			}
		})
	}
}

func mustList(t *testing.T, q *Queue) []Delivery {
	t.Helper()
	list, err := q.List(context.Background(), "site", "form")
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestDeleteRequests erases an address that a form's notify.email listed,
// on each database: the request that asked it to confirm, made already,
// is deleted with the address its arguments hold; another workspace's
// erasure, or another address's, deletes nothing.
func TestDeleteRequests(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			ownSite(t, db, "aaa", "site", "owner@example.com")
			mailer := &recordingMailer{sent: map[string]int{}}
			q := openQueueWith(t, db, pgURL, forms{"site/form": mailForm()}, func(c *Config) { c.Mailer, c.MailFrom = mailer, "hub@forms.example.com" })
			if err := db.CreateSubmission(ctx, storetest.Submission("S1")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the request to confirm", func() bool { return settled(t, q, "site", "form") && mailer.count("two@example.org") == 1 })
			requests := func() int {
				n := 0
				for _, d := range mustList(t, q) {
					if d.Kind == (ConfirmRecipientArgs{}).Kind() {
						n++
					}
				}
				return n
			}
			if n := requests(); n != 1 {
				t.Fatalf("%d requests to confirm listed, want 1", n)
			}
			for _, other := range [][2]string{{"bbb", "two@example.org"}, {"aaa", "three@example.org"}} {
				if n, err := q.DeleteRequests(ctx, other[0], other[1]); err != nil || n != 0 {
					t.Errorf("DeleteRequests(%s, %s) = %d, %v; want 0", other[0], other[1], n, err)
				}
			}
			if n, err := q.DeleteRequests(ctx, "aaa", " Two@Example.org"); err != nil || n != 1 {
				t.Fatalf("DeleteRequests(aaa, Two@Example.org) = %d, %v; want 1", n, err)
			}
			if n := requests(); n != 0 {
				t.Errorf("%d requests to confirm left", n)
			}
		})
	}
}
