package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/export"
)

// memStore lists n submissions made in memory, as the fill of inboxbench
// makes them: a name, an address and a message of a dozen words.
type memStore struct {
	Store
	subs []hub.Submission
}

func newMemStore(n int) *memStore {
	m := &memStore{subs: make([]hub.Submission, n)}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range m.subs {
		p, _ := json.Marshal(map[string]string{"name": "Greta Jensen", "email": fmt.Sprintf("greta.jensen%d@example.com", i),
			"message": "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod"})
		m.subs[i] = hub.Submission{ID: hub.NewID(at.Add(time.Duration(i) * time.Second)), Site: "bench", Slug: "inbox",
			CreatedAt: at.Add(time.Duration(i) * time.Second), Payload: p}
	}
	return m
}

func (m *memStore) ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error {
	for _, s := range m.subs {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

func (m *memStore) ListPayloads(ctx context.Context, f hub.Filter, fn func([]byte) error) error {
	for _, s := range m.subs {
		if err := fn(s.Payload); err != nil {
			return err
		}
	}
	return nil
}

var benchSheet = export.Sheet{Title: "Bench", Location: time.UTC,
	Columns: []export.SheetColumn{{Name: "name", Label: "Name"}, {Name: "email", Label: "E-mail"}, {Name: "message", Label: "Message"}},
	FileURL: func(id string, n int) string { return "https://hub.example/x/" + id + "/files/" + strconv.Itoa(n) }}

// BenchmarkExportCSV writes 100,000 submissions held in memory as the
// console's CSV, to a writer that discards it and over HTTP to a client
// on the same machine: the difference is what the HTTP path costs.
func BenchmarkExportCSV(b *testing.B) {
	const n = 100_000
	store := newMemStore(n)
	in := &Inbox{Store: store, Logger: slog.New(slog.DiscardHandler)}
	form := &hub.Form{Site: "bench", Slug: "inbox"}
	b.Run("store", func(b *testing.B) {
		for b.Loop() {
			if err := export.SheetCSV(context.Background(), store, hub.Filter{}, benchSheet, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	// http-4KiB sends the export in the CSV writer's own pieces, as the
	// console did before it buffered exports (exportBuffer).
	for _, size := range []int{4 << 10, exportBuffer} {
		b.Run("http-"+strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			defer func(was int) { exportBuffer = was }(exportBuffer)
			exportBuffer = size
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				in.ExportSheet(w, r, form, "csv", hub.Filter{}, benchSheet)
			}))
			defer srv.Close()
			for b.Loop() {
				res, err := http.Get(srv.URL)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
