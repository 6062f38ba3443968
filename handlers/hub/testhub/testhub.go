// Package testhub runs a real hub for tests of code that talks to one: the
// hub's own routes over SQLite, local signed uploads and a forms directory,
// served on a loopback port, with a switch to make it fail.
package testhub

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// Hub is a running hub. Close it, or let the test's cleanup do it.
type Hub struct {
	// URL is the hub URL for clients, ending in /v1.
	URL      string
	Server   *httptest.Server
	DB       *sqldb.DB
	Blobs    *localblob.Store
	FormsDir string

	t      testing.TB
	mu     sync.Mutex
	faults []fault
}

type fault struct {
	pathSuffix string
	status     int
	message    string
}

// Start runs a hub serving formFiles, a map of "site/slug" to the form file's
// JSON. configure, when given, adjusts the hub's configuration.
func Start(t testing.TB, formFiles map[string]string, configure ...func(*protocol.Config)) *Hub {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	h := &Hub{t: t, FormsDir: filepath.Join(dir, "forms")}
	if err := os.MkdirAll(h.FormsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range formFiles {
		site, slug, _ := strings.Cut(name, "/")
		h.WriteForm(site, slug, content)
	}
	h.Server = httptest.NewUnstartedServer(nil)
	h.Server.Start()
	t.Cleanup(h.Server.Close)
	h.URL = h.Server.URL + "/v1"

	var err error
	if h.DB, err = sqlite.Open(ctx, filepath.Join(dir, "hub.db")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.DB.Close() })
	secret := make([]byte, 32)
	rand.Read(secret)
	if h.Blobs, err = localblob.Open(ctx, filepath.Join(dir, "files"), h.Server.URL+protocol.UploadsPath, secret); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Blobs.Close() })
	formDir, err := formsource.Open(h.FormsDir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { formDir.Close() })
	cfg := protocol.Config{Forms: formDir, Store: h.DB, Blobs: h.Blobs, Uploads: h.Blobs.PutHandler(h.DB), Drafts: h.DB,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, c := range configure {
		c(&cfg)
	}
	server, err := protocol.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.fault(w, r) {
			return
		}
		server.ServeHTTP(w, r)
	})
	return h
}

// WriteForm writes, or rewrites, the form file of site/slug.
func (h *Hub) WriteForm(site, slug, content string) {
	h.t.Helper()
	path := filepath.Join(h.FormsDir, site, slug+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// FailNext makes the next request whose path ends in pathSuffix
// ("/submit", "/upload-url", ".json", "/_uploads") answer status with the
// hub's JSON error carrying message.
func (h *Hub) FailNext(pathSuffix string, status int, message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults = append(h.faults, fault{pathSuffix, status, message})
}

func (h *Hub) fault(w http.ResponseWriter, r *http.Request) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, f := range h.faults {
		if strings.HasSuffix(r.URL.Path, f.pathSuffix) {
			h.faults = append(h.faults[:i], h.faults[i+1:]...)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(f.status)
			json.NewEncoder(w).Encode(hubclient.SubmitResponse{Error: f.message})
			return true
		}
	}
	return false
}

// Submissions returns every stored submission, oldest first.
func (h *Hub) Submissions() []hub.Submission {
	h.t.Helper()
	var out []hub.Submission
	err := h.DB.ListSubmissions(context.Background(), hub.Filter{}, func(s hub.Submission) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// File returns the stored body of an uploaded file.
func (h *Hub) File(key string) []byte {
	h.t.Helper()
	r, err := h.Blobs.NewReader(context.Background(), key)
	if err != nil {
		h.t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		h.t.Fatal(err)
	}
	return data
}
