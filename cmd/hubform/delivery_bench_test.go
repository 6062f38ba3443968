package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/hubclient"
)

// benchDeliveryHub serves a hub in this process with the forms directory
// given and loopback receivers allowed, on SQLite, or on the PostgreSQL
// database dbURL names.
func benchDeliveryHub(b *testing.B, forms, dbURL string) string {
	return serveBenchHub(b, hubserver.Config{Data: b.TempDir(), DB: dbURL, Forms: forms, Delivery: hubserver.DeliveryConfig{AllowNets: "127.0.0.0/8"}})
}

// BenchmarkDeliveries sends 1,000 submissions from 32 clients to a form
// without webhooks and to one with two webhooks to a loopback receiver, in
// the same run, on SQLite and on PostgreSQL (a database for each hub). It
// reports the submissions' throughput with
// and without webhooks, their ratio (goal: the webhooks cost under 10%),
// and deliveries per second, from the first submission to the last
// delivery.
func BenchmarkDeliveries(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchmarkDeliveries(b, func() string { return "" }) })
	b.Run("postgres", func(b *testing.B) { benchmarkDeliveries(b, func() string { return pgtest.URL(b) }) })
}

func benchmarkDeliveries(b *testing.B, db func() string) {
	var delivered atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		delivered.Add(1)
	}))
	defer receiver.Close()
	plain := b.TempDir()
	os.MkdirAll(filepath.Join(plain, "acme"), 0o755)
	os.WriteFile(filepath.Join(plain, "acme", "contact.json"), []byte(`{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Name"}]}`), 0o644)
	twoHooks := b.TempDir()
	os.MkdirAll(filepath.Join(twoHooks, "acme"), 0o755)
	os.WriteFile(filepath.Join(twoHooks, "acme", "contact.json"), []byte(`{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Name"}],
		"hub": {"webhooks": [{"url": "`+receiver.URL+`/a", "secret": "`+webhookSecret+`"}, {"url": "`+receiver.URL+`/b", "secret": "`+webhookSecret+`"}]}}`), 0o644)
	plainURL, hooksURL := benchDeliveryHub(b, plain, db()), benchDeliveryHub(b, twoHooks, db())

	const total, concurrency = 1000, 32
	send := func(hubURL string) time.Duration {
		c := &hubclient.Client{HubURL: hubURL, HTTPClient: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}}
		var next atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range concurrency {
			wg.Go(func() {
				for next.Add(1) <= total {
					if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
						Payload: map[string]any{"name": "Bench"},
					}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	var tPlain, tHooks, tDelivered time.Duration
	for b.Loop() {
		tPlain += send(plainURL)
		before := delivered.Load()
		start := time.Now()
		tHooks += send(hooksURL)
		for delivered.Load() < before+2*total {
			time.Sleep(time.Millisecond)
		}
		tDelivered += time.Since(start)
	}
	n := float64(b.N * total)
	b.ReportMetric(n/tPlain.Seconds(), "plain-sub/s")
	b.ReportMetric(n/tHooks.Seconds(), "2hooks-sub/s")
	b.ReportMetric(tPlain.Seconds()/tHooks.Seconds(), "x-of-plain")
	b.ReportMetric(2*n/tDelivered.Seconds(), "deliveries/s")
}
