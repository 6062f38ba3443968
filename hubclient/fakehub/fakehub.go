// Package fakehub imitates a hub in memory for the tests of clients, in
// the manner of net/http/httptest: a real HTTP server speaking the hub
// protocol, which records what it received and can be told to fail. It is
// not the hub: it keeps what it receives in memory. A submission to a form
// it was given (SetForm) is judged as the hub judges it, with the same
// code (hubclient.CheckPayload): values that do not match the form are
// answered 422 with a message per field, and what it keeps is what the
// hub would store; a submission to a form it was not given is kept as
// sent. It decides the ending a submission reaches with the hub's code
// (hubclient.Logic.Ending), and answers it.
//
// handlers/hub/hubtest runs the real hub instead, handlers/hub/testkit has
// small parts tests share (a clock, a log buffer, a free port), and
// handlers/hub/internal/testprograms finds the programs test servers run.
//
// Like the project's own hub, it keeps idempotency keys: a submission whose
// idempotency key it already stored for the same form is answered with the
// first submission's id, and nothing new is stored (Submissions lists the
// first only; Requests lists both). A key hubclient.CheckIdempotencyKey
// refuses is answered 400.
package fakehub

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// Route names a route of the hub, for FailNext.
type Route string

// The routes of a hub.
const (
	RouteSchema    Route = "schema"
	RouteUploadURL Route = "upload-url"
	RoutePut       Route = "put"
	RouteSubmit    Route = "submit"
)

// Hub is a hub for tests. Its methods are safe for concurrent use.
type Hub struct {
	// URL is the hub URL to hand to clients: the server's address + "/v1".
	URL string
	// Server is the HTTP server behind URL.
	Server *httptest.Server
	// Latency, when set before use, delays every answer of upload-url and
	// of the PUT, as a distant hub and storage would.
	Latency time.Duration
	// Intercept, when set before use, sees every request first; when it
	// returns true it has answered and the hub does nothing more.
	Intercept func(w http.ResponseWriter, r *http.Request) bool

	mu          sync.Mutex
	forms       map[string]*hubclient.Schema
	uploads     map[string]*Upload
	submissions []Submission
	requests    []Request
	faults      map[Route][]fault
}

// Upload is a file the hub issued an upload URL for.
type Upload struct {
	Key     string
	Site    string
	Form    string
	Request hubclient.UploadURLRequest
	// Stored reports whether the PUT delivered the body.
	Stored      bool
	ContentType string
	Size        int64
	SHA256      [sha256.Size]byte
}

// Submission is a submission the hub accepted.
type Submission struct {
	ID, Site, Form string
	Request        hubclient.SubmitRequest
	// Body is the request body exactly as received.
	Body []byte
	// Ending is the id of the ending the submission reached, as the hub
	// answered it.
	Ending string
}

// Request is one request as received, for checking the wire.
type Request struct {
	Method string
	// RequestURI is the unmodified target of the request line.
	RequestURI string
	Header     http.Header
	// Body is kept for the JSON routes, not for PUTs.
	Body []byte
}

type fault struct {
	status  int
	message string
}

// NewServer starts a hub. Close it when done.
func NewServer() *Hub {
	h := &Hub{
		forms:   make(map[string]*hubclient.Schema),
		uploads: make(map[string]*Upload),
		faults:  make(map[Route][]fault),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/{site}/{file}", h.schema)
	mux.HandleFunc("POST /v1/{site}/{slug}/upload-url", h.uploadURL)
	mux.HandleFunc("POST /v1/{site}/{slug}/submit", h.submit)
	mux.HandleFunc("PUT /storage/{token}", h.put)
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.Intercept != nil && h.Intercept(w, r) {
			return
		}
		mux.ServeHTTP(w, r)
	}))
	h.URL = h.Server.URL + "/v1"
	return h
}

// Close shuts the server down.
func (h *Hub) Close() { h.Server.Close() }

// SetForm makes the hub serve s as site/slug.
func (h *Hub) SetForm(site, slug string, s *hubclient.Schema) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.forms[site+"/"+slug] = s
}

// FailNext makes the next call of route answer status with the JSON body
// {ok:false, error:message}. Calls queue up.
func (h *Hub) FailNext(route Route, status int, message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults[route] = append(h.faults[route], fault{status, message})
}

// Submissions returns the accepted submissions in arrival order.
func (h *Hub) Submissions() []Submission {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Submission(nil), h.submissions...)
}

// Upload returns the upload issued under key.
func (h *Hub) Upload(key string) (Upload, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	u, ok := h.uploads[key]
	if !ok {
		return Upload{}, false
	}
	return *u, true
}

// Requests returns every request received, in arrival order.
func (h *Hub) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

// record logs r, reading its body when keep, and reports whether a fault
// answered it.
func (h *Hub) record(w http.ResponseWriter, r *http.Request, route Route, keep bool) ([]byte, bool) {
	var body []byte
	if keep {
		body, _ = io.ReadAll(io.LimitReader(r.Body, 1<<20))
	}
	h.mu.Lock()
	h.requests = append(h.requests, Request{Method: r.Method, RequestURI: r.RequestURI, Header: r.Header.Clone(), Body: body})
	var f *fault
	if q := h.faults[route]; len(q) > 0 {
		f, h.faults[route] = &q[0], q[1:]
	}
	h.mu.Unlock()
	if f != nil {
		answer(w, f.status, hubclient.SubmitResponse{Error: f.message})
		return nil, true
	}
	return body, false
}

func (h *Hub) schema(w http.ResponseWriter, r *http.Request) {
	if _, failed := h.record(w, r, RouteSchema, false); failed {
		return
	}
	slug, ok := strings.CutSuffix(r.PathValue("file"), ".json")
	h.mu.Lock()
	s := h.forms[r.PathValue("site")+"/"+slug]
	h.mu.Unlock()
	if !ok || s == nil {
		answer(w, http.StatusNotFound, hubclient.SubmitResponse{Error: "form not found"})
		return
	}
	answer(w, http.StatusOK, s)
}

func (h *Hub) uploadURL(w http.ResponseWriter, r *http.Request) {
	body, failed := h.record(w, r, RouteUploadURL, true)
	if failed {
		return
	}
	h.wait(r)
	var req hubclient.UploadURLRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Filename == "" || req.Size < 0 {
		answer(w, http.StatusBadRequest, hubclient.SubmitResponse{Error: "want {filename, size, mime}"})
		return
	}
	token := randomHex()
	u := &Upload{Key: "uploads/" + r.PathValue("site") + "/" + r.PathValue("slug") + "/" + token + "/" + req.Filename,
		Site: r.PathValue("site"), Form: r.PathValue("slug"), Request: req}
	h.mu.Lock()
	h.uploads[token] = u
	h.uploads[u.Key] = u
	h.mu.Unlock()
	answer(w, http.StatusOK, hubclient.UploadURLResponse{OK: true, Key: u.Key,
		UploadURL: h.Server.URL + "/storage/" + token + "?X-Signature=" + randomHex()})
}

func (h *Hub) put(w http.ResponseWriter, r *http.Request) {
	if _, failed := h.record(w, r, RoutePut, false); failed {
		return
	}
	h.wait(r)
	h.mu.Lock()
	u := h.uploads[r.PathValue("token")]
	h.mu.Unlock()
	switch {
	case u == nil:
		http.Error(w, "no such upload", http.StatusForbidden)
		return
	case r.Header.Get("Content-Type") != u.Request.MIME:
		http.Error(w, "content type differs from the signed one", http.StatusForbidden)
		return
	case r.ContentLength != u.Request.Size:
		http.Error(w, "content length differs from the signed one", http.StatusForbidden)
		return
	}
	hash := sha256.New()
	n, err := io.Copy(hash, r.Body)
	if err != nil || n != u.Request.Size {
		http.Error(w, "body cut short", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	u.Stored, u.ContentType, u.Size = true, r.Header.Get("Content-Type"), n
	copy(u.SHA256[:], hash.Sum(nil))
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (h *Hub) submit(w http.ResponseWriter, r *http.Request) {
	body, failed := h.record(w, r, RouteSubmit, true)
	if failed {
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		answer(w, http.StatusUnsupportedMediaType, hubclient.SubmitResponse{Error: "submit takes application/json"})
		return
	}
	var req hubclient.SubmitRequest
	if err := json.Unmarshal(body, &req); err != nil {
		answer(w, http.StatusBadRequest, hubclient.SubmitResponse{Error: err.Error()})
		return
	}
	for _, v := range req.Honeypots {
		if v != "" {
			answer(w, http.StatusOK, hubclient.SubmitResponse{OK: true})
			return
		}
	}
	if err := hubclient.CheckIdempotencyKey(req.IdempotencyKey); err != nil {
		answer(w, http.StatusBadRequest, hubclient.SubmitResponse{Error: "bad idempotencyKey: " + err.Error()})
		return
	}
	site, form := r.PathValue("site"), r.PathValue("slug")
	h.mu.Lock()
	defer h.mu.Unlock()
	if first, ok := h.byKey(site, form, req.IdempotencyKey); ok {
		answer(w, http.StatusOK, hubclient.SubmitResponse{OK: true, SubmissionID: first.ID, Ending: first.Ending})
		return
	}
	if schema := h.forms[site+"/"+form]; schema != nil {
		for name := range req.Payload {
			if hubclient.IsHoneypot(name) {
				delete(req.Payload, name)
			}
		}
		if fields := hubclient.CheckPayload(schema, req.Payload, &req.Attachments); len(fields) > 0 {
			answer(w, http.StatusUnprocessableEntity, hubclient.SubmitResponse{Error: "the submission does not match the form", Fields: fields})
			return
		}
	}
	for _, a := range req.Attachments {
		u := h.uploads[a.Key]
		if u == nil || !u.Stored || u.Size != a.Size || u.ContentType != a.MIME {
			answer(w, http.StatusUnprocessableEntity, hubclient.SubmitResponse{Error: fmt.Sprintf("attachment %q was not uploaded", a.Key)})
			return
		}
	}
	id := fmt.Sprintf("sub-%d", len(h.submissions)+1)
	ending := h.ending(site, form, req)
	h.submissions = append(h.submissions, Submission{ID: id, Site: site, Form: form, Request: req, Body: body, Ending: ending})
	res := hubclient.SubmitResponse{OK: true, SubmissionID: id, Ending: ending}
	h.quiz(site, form, req, &res)
	answer(w, http.StatusOK, res)
}

// quiz gives res the score and the right and wrong answers of a quiz, as
// the hub works them out; h.mu must be held.
func (h *Hub) quiz(site, form string, req hubclient.SubmitRequest, res *hubclient.SubmitResponse) {
	s := h.forms[site+"/"+form]
	if s == nil || s.Quiz == nil {
		return
	}
	l, err := hubclient.Compile(s)
	if err != nil {
		return
	}
	values := hubclient.WithFiles(req.Payload, req.Attachments)
	if v, ok := l.Calculate(values)[hubclient.ScoreName].(float64); ok {
		res.Score = &v
	}
	if s.Quiz.ShowAnswers {
		res.Answers = l.QuizAnswers(values)
	}
}

// ending returns the id of the ending of the form site/form that req's
// values reach, with the code the hub decides it with; "" for none or a
// form SetForm did not give. h.mu must be held.
func (h *Hub) ending(site, form string, req hubclient.SubmitRequest) string {
	s := h.forms[site+"/"+form]
	if s == nil || len(s.Endings) == 0 {
		return ""
	}
	l, err := hubclient.Compile(s)
	if err != nil {
		return ""
	}
	if e := l.Ending(hubclient.WithFiles(req.Payload, req.Attachments)); e != nil {
		return e.ID
	}
	return ""
}

// byKey returns the submission to site/form stored with the idempotency
// key, if any; h.mu must be held.
func (h *Hub) byKey(site, form, key string) (Submission, bool) {
	if key == "" {
		return Submission{}, false
	}
	for _, s := range h.submissions {
		if s.Site == site && s.Form == form && s.Request.IdempotencyKey == key {
			return s, true
		}
	}
	return Submission{}, false
}

func (h *Hub) wait(r *http.Request) {
	if h.Latency <= 0 {
		return
	}
	select {
	case <-time.After(h.Latency):
	case <-r.Context().Done():
	}
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func randomHex() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
