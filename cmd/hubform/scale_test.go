package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
)

// sharedStorage returns a fresh PostgreSQL database and bucket for hubs
// that scale out. Package main has no other user of pgtest's server, so it
// is stopped when t ends rather than left to the end of the binary.
func sharedStorage(t testing.TB) (dbURL, blobURL string) {
	t.Helper()
	return pgtest.URL(t), s3test.URL(t)
}

func bytesFile(name, mime string, body []byte) hubclient.File {
	return hubclient.NewFile(name, mime, int64(len(body)), func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(body)), nil
	})
}

// TestTwoHubsShareDatabaseAndBucket runs two hub processes on one database
// and one bucket, each with a data directory of its own: a file signed for
// on one node and put to the bucket is accepted by the other, and the
// submission is one record whichever node stored it.
func TestTwoHubsShareDatabaseAndBucket(t *testing.T) {
	dbURL, blobURL := sharedStorage(t)
	forms := formsDir(t)
	shared := []string{"--db", dbURL, "--blob", blobURL, "--signing-secret", strings.Repeat("shared-secret-", 3)}
	a := startHub(t, forms, t.TempDir(), shared...)
	b := startHub(t, forms, t.TempDir(), shared...)
	ctx := context.Background()
	onA, onB := &hubclient.Client{HubURL: a.url}, &hubclient.Client{HubURL: b.url}

	body := make([]byte, 300<<10)
	rand.Read(body)
	up, err := onA.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: "report.pdf", Size: int64(len(body)), MIME: "application/pdf"})
	if err != nil {
		t.Fatalf("upload-url on A: %v; log:\n%s", err, a.log)
	}
	bucket, _ := url.Parse(blobURL)
	if endpoint := bucket.Query().Get("endpoint"); !strings.HasPrefix(up.UploadURL, endpoint+"/"+bucket.Host+"/") {
		t.Fatalf("upload URL %s is not the bucket's (%s)", up.UploadURL, endpoint)
	}
	if err := onA.Put(ctx, up.UploadURL, bytesFile("report.pdf", "application/pdf", body)); err != nil {
		t.Fatalf("PUT to the bucket: %v", err)
	}
	attachment := hubclient.Attachment{Key: up.Key, Filename: "report.pdf", Size: int64(len(body)), MIME: "application/pdf"}
	res, err := onB.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{
		Payload: map[string]any{"name": "Jane", "message": "from two nodes"}, Attachments: []hubclient.Attachment{attachment},
	})
	if err != nil {
		t.Fatalf("submit on B: %v; log:\n%s", err, b.log)
	}

	// The upload is claimed in the shared database: neither node takes it
	// twice.
	for _, c := range []*hubclient.Client{onA, onB} {
		_, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{
			Payload: map[string]any{"name": "Mallory"}, Attachments: []hubclient.Attachment{attachment},
		})
		if !isStatus(err, http.StatusUnprocessableEntity) {
			t.Errorf("second submit of the same upload on %s: %v, want 422", c.HubURL, err)
		}
	}
	// The signed URL works until it expires and the bucket takes another
	// body of the same size and type, but the file accepted stays as it
	// was (read back below).
	forged := make([]byte, len(body))
	rand.Read(forged)
	if err := onA.Put(ctx, up.UploadURL, bytesFile("report.pdf", "application/pdf", forged)); err != nil {
		t.Fatalf("second PUT to the bucket: %v", err)
	}
	// A URL signed on B but never used: A looks in the bucket, finds
	// nothing and refuses.
	unused, err := onB.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: "later.pdf", Size: 10, MIME: "application/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = onA.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{
		Payload:     map[string]any{"name": "Jane"},
		Attachments: []hubclient.Attachment{{Key: unused.Key, Filename: "later.pdf", Size: 10, MIME: "application/pdf"}},
	})
	if !isStatus(err, http.StatusUnprocessableEntity) {
		t.Errorf("submit naming an upload never put: %v, want 422", err)
	}
	// With a bucket, the hub serves no upload endpoint of its own.
	if status := putStatus(t, strings.TrimSuffix(a.url, "/v1")+protocol.UploadsPath); status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		t.Errorf("PUT %s on a hub with --blob: status %d, want 404 or 405", protocol.UploadsPath, status)
	}

	status, stdout, stderr := hubform(t, "submissions", "export", "--db", dbURL)
	var listed []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &listed) != nil {
		t.Fatalf("export --db: status %d, %q %q", status, stdout, stderr)
	}
	if len(listed) != 1 || listed[0].ID != res.SubmissionID || len(listed[0].Attachments) != 1 || listed[0].Attachments[0].Key != up.Key {
		t.Fatalf("listed %+v, want only submission %s with %s", listed, res.SubmissionID, up.Key)
	}
	t.Setenv("HUBFORM_DB", dbURL)
	if status, stdout, stderr := hubform(t, "submissions", "list"); status != 0 || !strings.Contains(stdout, res.SubmissionID) || !strings.Contains(stdout, "1 submission") {
		t.Errorf("list with HUBFORM_DB: status %d, %q %q", status, stdout, stderr)
	}

	store, err := s3blob.Open(ctx, blobURL)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r, err := store.NewReader(ctx, up.Key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("the bucket holds %d bytes (%v), not the %d uploaded", len(got), err, len(body))
	}
}

func TestScaleFlagErrors(t *testing.T) {
	t.Parallel()
	forms := formsDir(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hub", "--forms", forms, "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--db", "mysql://u:secret@h/db"}, "--db: want a postgres:// URL"},
		{[]string{"hub", "--forms", forms, "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--blob", "gs://bucket"}, "--blob: want an s3:// URL"},
		{[]string{"submissions", "list", "--db", "sqlite:///tmp/x.DB"}, "--db: want a postgres:// URL"},
	} {
		status, _, stderr := hubform(t, tc.args...)
		if status != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", tc.args, status, stderr, tc.want)
		}
		if strings.Contains(stderr, "secret") {
			t.Errorf("%q: stderr %q repeats the password", tc.args, stderr)
		}
	}
	_, stdout, _ := hubform(t, "hub", "--help")
	for _, want := range []string{"--db URL", "HUBFORM_DB", "--blob URL", "HUBFORM_BLOB", "AWS_ACCESS_KEY_ID"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("hub --help lacks %q", want)
		}
	}
	if _, stdout, _ := hubform(t, "submissions", "--help"); !strings.Contains(stdout, "--db URL") {
		t.Error("submissions --help lacks --db URL")
	}
}

// TestHubRefusesMissingBucket checks that a hub whose bucket does not exist
// fails at start, not at its first upload.
func TestHubRefusesMissingBucket(t *testing.T) {
	blobURL := s3test.URL(t)
	u, _ := url.Parse(blobURL)
	u.Host = "no-such-bucket"
	status, _, stderr := hubform(t, "hub", "--forms", formsDir(t), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--blob", u.String())
	if status != 1 || !strings.Contains(stderr, "no-such-bucket") {
		t.Errorf("status %d, stderr %q; want 1 and the bucket named", status, stderr)
	}
}

func isStatus(err error, status int) bool {
	var he *hubclient.HubError
	return errors.As(err, &he) && he.StatusCode == status
}

func putStatus(t *testing.T, rawURL string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, rawURL, strings.NewReader("x"))
	req.Header.Set("Content-Type", "text/plain")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestTwoHubsShareRateLimit runs two hubs on one database: a client's
// requests to either count against one budget, whereas a hub on SQLite
// counts on its own.
func TestTwoHubsShareRateLimit(t *testing.T) {
	t.Parallel()
	dbURL, forms := pgtest.URL(t), formsDir(t)
	limit := []string{"--db", dbURL, "--rate-limit", "3"}
	a := startHub(t, forms, t.TempDir(), limit...)
	b := startHub(t, forms, t.TempDir(), limit...)
	statuses := func(hubs ...*hubProcess) []int {
		var out []int
		for _, h := range hubs {
			res, err := http.Post(h.url+"/acme/contact/submit", "application/json", strings.NewReader(`{"payload":{"name":"Jane"}}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			out = append(out, res.StatusCode)
		}
		return out
	}
	// The shared budget runs in clock minutes: keep the requests in one.
	if s := time.Now().Second(); s >= 55 {
		time.Sleep(time.Duration(61-s) * time.Second)
	}
	got := statuses(a, b, a, b)
	if want := []int{200, 200, 200, 429}; !slices.Equal(got, want) {
		t.Errorf("four submissions spread over two hubs on one database: %v, want %v", got, want)
	}
	alone := startHub(t, forms, t.TempDir(), "--rate-limit", "3")
	if got := statuses(alone, alone, alone, alone); !slices.Equal(got, []int{200, 200, 200, 429}) {
		t.Errorf("a hub on SQLite: %v, want three allowed then 429", got)
	}
}
