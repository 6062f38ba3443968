package delivery

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

// TestWebhookURLNotLogged delivers to a receiver whose URL carries a token
// in its path and query and that cannot be reached: neither the log nor the
// errors kept with the delivery, which the console shows, hold the URL's
// token or the secret; the log names the receiver's host.
func TestWebhookURLNotLogged(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			gone := httptest.NewServer(http.NotFoundHandler())
			gone.Close() // connections to it are refused
			hook := gone.URL + "/services/T0KENPATH?key=QUERYTOKEN"
			fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{Webhooks: []hub.Webhook{{URL: hook, Secret: secret}}}}}
			var log testkit.Buffer
			q := openQueueWith(t, db, pgURL, fs, func(c *Config) {
				c.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			if err := db.CreateSubmission(ctx, storetest.Submission("S1")); err != nil {
				t.Fatal(err)
			}
			var errs []string
			for deadline := time.Now().Add(30 * time.Second); len(errs) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				list, err := q.List(ctx, "site", "form")
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range list {
					for _, e := range d.Errors {
						errs = append(errs, e.Error)
					}
				}
			}
			if len(errs) == 0 {
				t.Fatal("no failed attempt recorded")
			}
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(log.String(), "delivery attempt failed") && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			out := log.String()
			if !strings.Contains(out, "delivery attempt failed") {
				t.Fatalf("the failed attempt is not logged:\n%s", out)
			}
			for _, where := range []string{out, strings.Join(errs, "\n")} {
				for _, s := range []string{"T0KENPATH", "QUERYTOKEN", strings.TrimPrefix(secret, "whsec_")} {
					if strings.Contains(where, s) {
						t.Errorf("%q in:\n%s", s, where)
					}
				}
			}
			if host := strings.TrimPrefix(gone.URL, "http://"); !strings.Contains(out, host) {
				t.Errorf("the log does not name the receiver's host %s:\n%s", host, out)
			}
		})
	}
}
