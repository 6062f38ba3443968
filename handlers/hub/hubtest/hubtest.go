// Package hubtest runs a real hub for tests, as net/http/httptest runs a
// real server: the hub's own protocol server over SQLite, local signed
// uploads and a forms directory, served on a loopback port, with a switch
// to make it fail.
//
// Its neighbours hold no such hub: hubclient/fakehub imitates one in memory
// for client tests, handlers/hub/testkit has small parts tests share (a
// clock, a log buffer, a free port), and handlers/hub/internal/testprograms
// finds the programs that other test servers run.
package hubtest

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
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/hubclient"
)

// Hub is a hub for tests. NewUnstarted opens its stores and Hub.Start
// serves it; Start does both. The test's cleanup closes it.
type Hub struct {
	// URL is the hub URL for clients, ending in /v1. It is known before
	// the hub starts.
	URL string
	// Server is the HTTP server behind URL. It listens from NewUnstarted
	// on and serves from Start on.
	Server *httptest.Server
	// Protocol is the hub's protocol server, set by Start.
	Protocol *protocol.Server
	DB       *sqldb.DB
	Blobs    *localblob.Store
	// FormsDir is the forms directory, with hub.db and the files beside it
	// as in hubform hub's data directory. Forms serves it.
	FormsDir string
	Forms    *formsource.Dir
	// Log holds what the hub logged, at every level; Logger writes there.
	Log    *testkit.Buffer
	Logger *slog.Logger
	// Intercept, when set before Start, sees every request first; when it
	// returns true it has answered and the hub does nothing more.
	Intercept func(w http.ResponseWriter, r *http.Request) bool

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
	h := NewUnstarted(t, formFiles)
	h.Start(configure...)
	return h
}

// NewUnstarted opens the stores of a hub serving formFiles, as Start
// does, and reserves its address, but serves nothing until Hub.Start: a
// test may first build, from the hub's stores and URL, what it adds to
// the hub's configuration.
func NewUnstarted(t testing.TB, formFiles map[string]string) *Hub {
	t.Helper()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "data")
	h := &Hub{t: t, FormsDir: filepath.Join(data, "forms"), Log: &testkit.Buffer{}}
	h.Logger = slog.New(slog.NewTextHandler(h.Log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if err := os.MkdirAll(h.FormsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range formFiles {
		site, slug, _ := strings.Cut(name, "/")
		h.WriteForm(site, slug, content)
	}
	// The server's URL goes into the signed upload URLs, so it is needed
	// before the handler exists.
	h.Server = httptest.NewUnstartedServer(nil)
	base := "http://" + h.Server.Listener.Addr().String()
	h.URL = base + "/v1"

	var err error
	if h.DB, err = sqlite.Open(ctx, filepath.Join(data, "hub.db")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.DB.Close() })
	secret := make([]byte, 32)
	rand.Read(secret)
	if h.Blobs, err = localblob.Open(ctx, filepath.Join(data, "files"), base+protocol.UploadsPath, secret); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Blobs.Close() })
	if h.Forms, err = formsource.Open(h.FormsDir, h.Logger); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Forms.Close() })
	// Registered last, it runs first: no request reaches closed stores.
	t.Cleanup(h.Server.Close)
	return h
}

// Start serves the hub of NewUnstarted. Its configuration has the hub's
// stores, forms, drafts and logger; configure, when given, adjusts it.
func (h *Hub) Start(configure ...func(*protocol.Config)) {
	h.t.Helper()
	cfg := protocol.Config{Forms: h.Forms, Store: h.DB, Blobs: h.Blobs, Uploads: h.Blobs.PutHandler(h.DB), Drafts: h.DB,
		Logger: h.Logger}
	for _, c := range configure {
		c(&cfg)
	}
	var err error
	if h.Protocol, err = protocol.NewServer(cfg); err != nil {
		h.t.Fatal(err)
	}
	h.Server.Config.Handler = http.HandlerFunc(h.serve)
	h.Server.Start()
}

func (h *Hub) serve(w http.ResponseWriter, r *http.Request) {
	if h.Intercept != nil && h.Intercept(w, r) {
		return
	}
	if h.fault(w, r) {
		return
	}
	h.Protocol.ServeHTTP(w, r)
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
		h.t.Fatalf("reading %s: %v", key, err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		h.t.Fatal(err)
	}
	return data
}
