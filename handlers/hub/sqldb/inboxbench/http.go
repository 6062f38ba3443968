package inboxbench

import (
	"context"
	"database/sql"
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
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

// benchForm is the large form, which names the export.
var benchForm = &hub.Form{Site: Site, Slug: Slug}

// benchSheet lays the large form's export out as the console does.
func benchSheet(base string) export.Sheet {
	return export.Sheet{Title: "Bench", Location: time.UTC,
		Columns: []export.SheetColumn{{Name: "name", Label: "Name"}, {Name: "email", Label: "E-mail"}, {Name: "message", Label: "Message"}},
		FileURL: func(id string, n int) string { return base + "/" + id + "/files/" + strconv.Itoa(n) }}
}

// measureHTTPExport downloads the whole large form as CSV over HTTP from
// the handler the console's export route ends in (inbox.Inbox's
// ExportSheet; the console's Echo adds a wrapper of the response, no
// copy), read by a client on the same machine as fast as it comes: the
// figure beside the store's own, to show what the HTTP path costs. It
// also downloads the sheet written straight into the response, as the
// console did before it buffered exports.
func measureHTTPExport(ctx context.Context, db *sqldb.DB) ([]exportResult, error) {
	rows, err := db.CountSubmissions(ctx, hub.Filter{Site: Site, Slug: Slug})
	if err != nil {
		return nil, err
	}
	sheet := benchSheet("https://hub.example/console/forms/bench/inbox/submissions")
	f := hub.Filter{Site: Site, Slug: Slug}
	in := &inbox.Inbox{Store: db, Logger: slog.New(slog.DiscardHandler)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /export/csv", func(w http.ResponseWriter, r *http.Request) {
		in.ExportSheet(w, r, benchForm, "csv", f, sheet)
	})
	mux.HandleFunc("GET /unbuffered/csv", func(w http.ResponseWriter, r *http.Request) {
		export.SheetCSV(r.Context(), db, f, sheet, w)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var out []exportResult
	for _, path := range []string{"/unbuffered/csv", "/export/csv"} {
		h := testkit.WatchHeap()
		began := time.Now()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			return nil, err
		}
		w := &countingWriter{}
		_, err = io.Copy(w, res.Body)
		res.Body.Close()
		took := time.Since(began)
		peak := h.End()
		if err != nil || res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("csv export over HTTP: %s, %v", res.Status, err)
		}
		out = append(out, exportResult{name: "csv-http" + map[bool]string{true: "-unbuffered"}[path == "/unbuffered/csv"], rows: int64(rows), bytes: w.n, rowsPerSec: float64(rows) / took.Seconds(), peak: peak})
	}
	return out, nil
}

// Exports fills db, which must be empty, with the large form alone and
// measures its exports only: from the store as CSV and JSON, and as CSV
// through HTTP as the console serves it. It is the quick way to compare
// the two paths (BenchmarkExport); Run measures them among the rest.
func Exports(b *testing.B, db *sqldb.DB, settle func(ctx context.Context, w *sql.DB) error) {
	ctx := context.Background()
	size, err := Size()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fill(ctx, db.Writer(), size, time.Now().Add(-time.Minute)); err != nil {
		b.Fatal(err)
	}
	// As Run does: the fill's indexing is done before the exports, not
	// during them.
	if _, err := indexQueued(ctx, db); err != nil {
		b.Fatal(err)
	}
	if settle != nil {
		if err := settle(ctx, db.Writer()); err != nil {
			b.Fatal(err)
		}
	}
	// Once untimed, so that each export reads from the same warm caches,
	// whatever its place in the run.
	if _, err := measureExports(ctx, db); err != nil {
		b.Fatal(err)
	}
	var exports []exportResult
	for b.Loop() {
		if exports, err = measureExports(ctx, db); err != nil {
			b.Fatal(err)
		}
	}
	for _, e := range exports {
		b.ReportMetric(e.rowsPerSec, e.name+"-rows/s")
		b.Logf("%-16s %d rows, %.0f rows/s, %d MB, peak heap %.1f MiB", e.name+" export", e.rows, e.rowsPerSec, e.bytes/1e6, float64(e.peak)/(1<<20))
	}
}
