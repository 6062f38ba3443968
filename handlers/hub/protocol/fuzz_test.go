package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// fuzzSchema has a field of every type.
const fuzzSchema = `{
  "fields": [
    {"name": "name", "type": "text", "required": true},
    {"name": "email", "type": "email"},
    {"name": "phone", "type": "tel"},
    {"name": "website", "type": "url"},
    {"name": "age", "type": "number"},
    {"name": "message", "type": "textarea"},
    {"name": "color", "type": "select", "options": [{"value": "red"}, {"value": "green"}]},
    {"name": "size", "type": "radio", "options": [{"value": "s"}]},
    {"name": "toppings", "type": "checkboxes", "options": [{"value": "ham"}, {"value": "egg"}]},
    {"name": "agree", "type": "checkbox"},
    {"name": "born", "type": "date"},
    {"name": "cv", "type": "file"},
    {"name": "photos", "type": "file", "multiple": true},
    {"name": "ref", "type": "hidden"},
    {"name": "_hp", "type": "text"}
  ],
  "steps": [{"id": "main", "fields": ["name", "email", "phone", "website", "age", "message", "color", "size", "toppings", "agree", "born", "cv", "photos", "_hp"]}]
}`

// memForms serves one form.
type memForms struct{ form *hub.Form }

func (m memForms) Lookup(site, slug string) (*hub.Form, error) {
	if site != m.form.Site || slug != m.form.Slug {
		return nil, hub.ErrNotFound
	}
	return m.form, nil
}

// memStore keeps uploads and submissions in memory.
type memStore struct {
	mu          sync.Mutex
	uploads     map[string]hub.Upload
	submissions []hub.Submission
}

func (m *memStore) CreateUpload(_ context.Context, u hub.Upload) error {
	if strings.Contains(u.MIME, "fail") {
		return errInternal
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.uploads[u.Key] = u
	return nil
}

// errInternal is what a failing dependency says: it names an address and
// a Go error, which no answer may repeat.
var errInternal = errors.New("dial tcp 10.1.2.3:5432: i/o timeout")

func (m *memStore) Upload(_ context.Context, key string) (hub.Upload, error) {
	if strings.Contains(key, "fail") {
		return hub.Upload{}, errInternal
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.uploads[key]
	if !ok {
		return hub.Upload{}, hub.ErrNotFound
	}
	return u, nil
}

func (m *memStore) MarkUploaded(_ context.Context, key string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.uploads[key]
	if !ok {
		return hub.ErrNotFound
	}
	u.UploadedAt = at
	m.uploads[key] = u
	return nil
}

func (m *memStore) CreateSubmission(_ context.Context, s hub.Submission) error {
	if strings.Contains(string(s.Payload), "fail") {
		return errInternal
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.byKey(s.Site, s.Slug, s.IdempotencyKey); ok {
		return &hub.KeyUsedError{Key: s.IdempotencyKey, SubmissionID: id}
	}
	for _, a := range s.Attachments {
		u, ok := m.uploads[a.Key]
		if !ok || u.SubmissionID != "" || u.UploadedAt.IsZero() || u.Site != s.Site || u.Slug != s.Slug {
			return hub.ErrUploadClaim
		}
	}
	for _, a := range s.Attachments {
		u := m.uploads[a.Key]
		u.SubmissionID = s.ID
		m.uploads[a.Key] = u
	}
	m.submissions = append(m.submissions, s)
	return nil
}

func (m *memStore) SubmissionByKey(_ context.Context, site, form, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.byKey(site, form, key); ok {
		return id, nil
	}
	return "", hub.ErrNotFound
}

// FormFull counts as the database does: submissions not marked as spam.
func (m *memStore) FormFull(_ context.Context, site, form string, max int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, s := range m.submissions {
		if s.Site == site && s.Slug == form && !s.Spam {
			n++
		}
	}
	return max > 0 && n >= max, nil
}

func (m *memStore) byKey(site, form, key string) (string, bool) {
	for _, s := range m.submissions {
		if key != "" && s.Site == site && s.Slug == form && s.IdempotencyKey == key {
			return s.ID, true
		}
	}
	return "", false
}

func (m *memStore) StaleUploads(context.Context, time.Time, int) ([]hub.Upload, error) {
	return nil, nil
}
func (m *memStore) DeleteUpload(context.Context, string) error { return nil }

// memBlobs holds one uploaded file, "uploads/s/f/0/a.pdf".
type memBlobs struct{}

func (memBlobs) SignedPutURL(_ context.Context, u hub.Upload, _ time.Duration) (string, error) {
	if strings.Contains(u.Filename, "fail") {
		return "", fmt.Errorf("sign: %w", errInternal)
	}
	return "http://blobs.invalid/" + u.Key, nil
}

func (memBlobs) Attributes(_ context.Context, key string) (int64, string, error) {
	if key == "uploads/s/f/0/a.pdf" {
		return 3, "application/pdf", nil
	}
	return 0, "", hub.ErrNotFound
}

func (memBlobs) Delete(context.Context, string) error { return nil }

func newFuzzServer(t testing.TB) *Server {
	t.Helper()
	var schema hubclient.Schema
	if err := json.Unmarshal([]byte(fuzzSchema), &schema); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(&schema)
	if err != nil {
		t.Fatal(err)
	}
	store := &memStore{uploads: map[string]hub.Upload{
		"uploads/s/f/0/a.pdf": {Key: "uploads/s/f/0/a.pdf", Site: "s", Slug: "f", Filename: "a.pdf", MIME: "application/pdf", Size: 3},
	}}
	s, err := NewServer(Config{
		Forms:  memForms{&hub.Form{Site: "s", Slug: "f", Schema: &schema, JSON: js, Settings: hub.Settings{MaxFiles: 2}}},
		Store:  store,
		Blobs:  memBlobs{},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzSubmitBody sends arbitrary bodies to the submit route: every answer
// must be the hub's JSON with a 2xx or 4xx status.
func FuzzSubmitBody(f *testing.F) {
	for _, seed := range []string{
		`{"payload":{"name":"Jane"}}`,
		`{"payload":{"name":"Jane","email":"jane@example.com","age":"4","toppings":["ham"],"agree":true,"born":"2026-11-21"}}`,
		`{"payload":{"name":"Jane"},"attachments":[{"key":"uploads/s/f/0/a.pdf","filename":"a.pdf","size":3,"mime":"application/pdf","field":"cv"}]}`,
		`{"payload":{"name":"Jane"},"attachments":[{"key":"x","size":-1,"mime":"a/b","field":"photos"},{"key":"x"}]}`,
		`{"payload":{"name":"Jane"},"_hp":"bot"}`,
		`{"payload":{"name":"Jane"},"idempotencyKey":"k-1"}`,
		`{"payload":{"name":"Jane"},"idempotencyKey":"k\u0000"}`,
		`{"payload":{"name":"Jane"},"idempotencyKey":1}`,
		`{"payload":{"name":"Jane","_hp":""},"_hp_x":""}`,
		`{"payload":{"nope":[1,{"a":null}],"age":1e308,"website":"http://[::1"}}`,
		`{"payload":{"name":"` + strings.Repeat("\u00e9", 2001) + `"}}`,
		`{"payload":null}`,
		`null`,
		`[]`,
		`{"payload":{}`,
		"{\"payload\":{\"name\":\"\xff\xfe\"}}",
		``,
	} {
		f.Add([]byte(seed))
	}
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/s/f/submit", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode/100 != 2 && res.StatusCode/100 != 4 {
			t.Fatalf("status %d for body %q; answer %s", res.StatusCode, body, rec.Body)
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q for body %q, want application/json", ct, body)
		}
		data, _ := io.ReadAll(res.Body)
		var answer struct {
			OK    *bool  `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(data, &answer); err != nil || answer.OK == nil {
			t.Fatalf("answer %s for body %q: want JSON with ok (%v)", data, body, err)
		}
		if *answer.OK != (res.StatusCode == http.StatusOK) {
			t.Errorf("answer %s with status %d", data, res.StatusCode)
		}
		if !*answer.OK && answer.Error == "" {
			t.Errorf("refusal %s for body %q has no error message", data, body)
		}
	})
}

// InternalsPattern matches what Go errors of the network, the storage and
// the runtime say: no answer to a client may carry it, unless the client
// sent it.
var InternalsPattern = regexp.MustCompile(`(?i)\d+\.\d+\.\d+\.\d+:\d+|\[[0-9a-f:]+\]:\d+|\b(tcp|udp|dial)\b|i/o timeout|connection (reset|refused)|broken pipe|\bEOF\b|goroutine|panic|localblob:|sqlite|sqldb|postgres|pq:|context (deadline|canceled)|invalid character|(?-i:json: )|\.go:\d+`)

// FuzzFailureAnswers sends arbitrary requests to every route, with
// dependencies that fail on some inputs ("fail" in a key, a file name, a
// type or the payload): whatever the status, the answer is the hub's JSON
// and says nothing of the hub's insides that the request did not hold.
func FuzzFailureAnswers(f *testing.F) {
	for _, seed := range []struct {
		route       uint8
		contentType string
		body        string
	}{
		{0, "application/json", `{"filename":"fail.pdf","size":3,"mime":"application/pdf"}`},
		{0, "application/json", `{"filename":"a.pdf","size":3,"mime":"application/fail"}`},
		{0, "application/json", `{"filename":"a.pdf","size":3,"mime":"text/plain; a=\"\u0000\""}`},
		{0, "application/json", `{"filename":"a.attrs","size":3,"mime":"application/pdf"}`},
		{0, "application/json", `{"filename":1}`},
		{1, "application/json", `{"payload":{"name":"fail"}}`},
		{1, "application/json", `{"payload":{"name":"Jane"},"attachments":[{"key":"uploads/fail","size":3,"mime":"application/pdf","field":"cv"}]}`},
		{1, "application/json", `{"payload":{"name":"Jane"},"attachments":[{"key":"uploads/s/f/0/a.pdf","size":3,"mime":"application/pdf","field":"cv"}]}`},
		{1, "application/json", `{"payload":{"name":`},
		{1, "application/json", `{"payload":{"name":"Jane"}} trailing`},
		{1, "text/plain", `{}`},
		{2, "", ``},
		{3, "", ``},
		{4, "application/pdf", `%PDF`},
	} {
		f.Add(seed.route, seed.contentType, []byte(seed.body))
	}
	s := newFuzzServer(f)
	routes := []struct{ method, target string }{
		{http.MethodPost, "/v1/s/f/upload-url"},
		{http.MethodPost, "/v1/s/f/submit"},
		{http.MethodGet, "/v1/s/f.json"},
		{http.MethodOptions, "/v1/s/f/submit"},
		{http.MethodPut, "/v1/s/f/submit"},
	}
	f.Fuzz(func(t *testing.T, route uint8, contentType string, body []byte) {
		r := routes[int(route)%len(routes)]
		req := httptest.NewRequest(r.method, r.target, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Origin", "https://site.example")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode < 300 && r.method != http.MethodPost {
			return // the schema, a preflight: no error to look at
		}
		data, _ := io.ReadAll(res.Body)
		var answer struct {
			OK    *bool             `json:"ok"`
			Error string            `json:"error"`
			Field map[string]string `json:"fields"`
		}
		if err := json.Unmarshal(data, &answer); err != nil || answer.OK == nil {
			t.Fatalf("%s %s %q: answer %d %s, want the hub's JSON", r.method, r.target, body, res.StatusCode, data)
		}
		said := answer.Error
		for _, v := range answer.Field {
			said += "\n" + v
		}
		for _, m := range InternalsPattern.FindAllString(said, -1) {
			if !strings.Contains(strings.ToLower(contentType+string(body)), strings.ToLower(m)) {
				t.Errorf("%s %s %q: answer %d %q carries %q", r.method, r.target, body, res.StatusCode, said, m)
			}
		}
	})
}
