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
