package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// benchHub serves a hub in this process on a loopback port, with its
// database at dbURL (empty: SQLite in data).
func benchHub(b *testing.B, dbURL string) (url, data string) {
	data = b.TempDir()
	return serveBenchHub(b, hubserver.Config{Data: data, DB: dbURL, Forms: formsDir(b)}), data
}

// serveBenchHub is serveInProcess's hub URL.
func serveBenchHub(b *testing.B, cfg hubserver.Config) string {
	b.Helper()
	return serveInProcess(b, cfg).URL
}

// serveInProcess serves a hub in this process on a loopback port, with
// cfg's data, database, forms and deliveries and the defaults of the rest,
// until the test or benchmark ends.
func serveInProcess(tb testing.TB, cfg hubserver.Config) *hubserver.Hub {
	tb.Helper()
	cfg.Addr, cfg.UploadTTL, cfg.SweepInterval = "127.0.0.1:0", 24*time.Hour, time.Hour
	cfg.MaxBody, cfg.ShutdownGrace = protocol.DefaultMaxBodyBytes, time.Second
	h, err := hubserver.Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx) }()
	tb.Cleanup(func() { stop(); <-served; h.Close() })
	return h
}

// hammer sends n GETs of url from concurrency goroutines over kept-alive
// connections and returns the time taken.
func hammer(b *testing.B, client *http.Client, url string, n, concurrency int) time.Duration {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				res, err := client.Get(url)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Errorf("GET %s: %s", url, res.Status)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkSchemaGet measures the hub's schema route against a bare
// net/http handler serving the same bytes, in the same run, over loopback
// with 8 clients. Goal: at least 0.7 of the bare handler's throughput.
func BenchmarkSchemaGet(b *testing.B) {
	hubURL, _ := benchHub(b, "")
	schemaURL := hubURL + "/acme/contact.json"
	res, err := http.Get(schemaURL)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer bare.Close()
	const concurrency, batch = 8, 2000
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}
	var tHub, tBare time.Duration
	for b.Loop() {
		tBare += hammer(b, client, bare.URL, batch, concurrency)
		tHub += hammer(b, client, schemaURL, batch, concurrency)
	}
	n := float64(b.N * batch)
	b.ReportMetric(n/tHub.Seconds(), "hub-req/s")
	b.ReportMetric(n/tBare.Seconds(), "bare-req/s")
	b.ReportMetric(tBare.Seconds()/tHub.Seconds(), "x-of-bare")
}

// BenchmarkSubmissions sends 5,000 submissions per iteration from 32 and
// from 128 clients at once, to a hub on SQLite and to one on PostgreSQL,
// and checks that none failed and that the stored count equals the
// acknowledged count. PostgreSQL comes from pgtest; without it those
// sub-benchmarks are skipped.
func BenchmarkSubmissions(b *testing.B) {
	for _, store := range []struct {
		name  string
		dbURL func(*testing.B) string
	}{
		{"sqlite", func(*testing.B) string { return "" }},
		{"postgres", func(b *testing.B) string { return pgtest.URL(b) }},
	} {
		for _, concurrency := range []int{32, 128} {
			b.Run(fmt.Sprintf("%s/c%d", store.name, concurrency), func(b *testing.B) {
				benchSubmissions(b, store.dbURL(b), concurrency)
			})
		}
	}
}

func benchSubmissions(b *testing.B, dbURL string, concurrency int) {
	hubURL, data := benchHub(b, dbURL)
	const total = 5000
	c := &hubclient.Client{HubURL: hubURL, HTTPClient: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}}
	var acked atomic.Int64
	var elapsed time.Duration
	for b.Loop() {
		var next atomic.Int64
		var failed atomic.Value
		var wg sync.WaitGroup
		start := time.Now()
		for range concurrency {
			wg.Go(func() {
				for next.Add(1) <= total {
					_, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
						Payload: map[string]any{"name": "Bench", "message": "Hello from the benchmark"},
					})
					if err != nil {
						failed.Store(err)
						return
					}
					acked.Add(1)
				}
			})
		}
		wg.Wait()
		elapsed += time.Since(start)
		if err, _ := failed.Load().(error); err != nil {
			b.Fatalf("a submission failed: %v", err)
		}
	}
	db, err := hubserver.OpenDatabase(context.Background(), dbURL, data, true)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	stored, err := db.CountSubmissions(context.Background(), hub.Filter{})
	if err != nil || int64(stored) != acked.Load() {
		b.Fatalf("stored %d, acknowledged %d (%v)", stored, acked.Load(), errors.Join(err))
	}
	b.ReportMetric(float64(acked.Load())/elapsed.Seconds(), "submissions/s")
	b.ReportMetric(float64(acked.Load()-int64(stored)), "lost")
}
