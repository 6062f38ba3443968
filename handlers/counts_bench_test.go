package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
)

// BenchmarkFunnelCost measures what counting the funnel costs a visitor:
// a page's props and rendering, and a post through the submit route to a
// hub, each with counting on (the default, sending to the hub every few
// seconds) and off, in turn in one loop; on/off is the ratio of their
// times (goal: at most 1.05).
func BenchmarkFunnelCost(b *testing.B) {
	h := hubtest.Start(b, map[string]string{"acme/trip": tripForm}, func(cfg *protocol.Config) { cfg.Funnel = &tally{} })
	on := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, CountInterval: time.Second})
	off := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, NoCounts: true})
	b.Cleanup(func() { on.Close(context.Background()) })
	ctx := context.Background()

	measure := func(b *testing.B, op func(forms *handlers.Handler)) {
		op(on) // the schema cached
		op(off)
		var onTime, offTime time.Duration
		for b.Loop() {
			began := time.Now()
			op(off)
			offTime += time.Since(began)
			began = time.Now()
			op(on)
			onTime += time.Since(began)
		}
		b.ReportMetric(float64(onTime.Nanoseconds())/float64(b.N), "on-ns/op")
		b.ReportMetric(float64(offTime.Nanoseconds())/float64(b.N), "off-ns/op")
		b.ReportMetric(float64(onTime)/float64(offTime), "on/off")
	}

	b.Run("page", func(b *testing.B) {
		measure(b, func(forms *handlers.Handler) {
			p := forms.Props(ctx, "acme", "trip", "")
			if err := components.HubForm(p).Render(ctx, io.Discard); err != nil {
				b.Fatal(err)
			}
		})
	})

	b.Run("submit", func(b *testing.B) {
		servers := map[*handlers.Handler]*httptest.Server{on: httptest.NewServer(on), off: httptest.NewServer(off)}
		for _, srv := range servers {
			b.Cleanup(srv.Close)
		}
		measure(b, func(forms *handlers.Handler) {
			res, err := http.PostForm(servers[forms].URL+"/hubform/acme/trip/submit", url.Values{"name": {"Ada"}, "city": {"Oslo"}})
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatalf("status %d", res.StatusCode)
			}
		})
	})
}
