package hubclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// cannedHub answers every request with status and body, and records the
// requests it received.
type cannedHub struct {
	*httptest.Server
	mu       sync.Mutex
	requests []cannedRequest
}

type cannedRequest struct {
	method, uri, contentType, forwardedFor, body string
}

func newCannedHub(t *testing.T, status int, body string) *cannedHub {
	t.Helper()
	h := &cannedHub{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.requests = append(h.requests, cannedRequest{r.Method, r.RequestURI, r.Header.Get("Content-Type"), r.Header.Get("X-Forwarded-For"), string(b)})
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *cannedHub) received() []cannedRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]cannedRequest(nil), h.requests...)
}

func TestUploadPartsCount(t *testing.T) {
	for _, tt := range []struct {
		partSize, size int64
		want           int
	}{
		{10, 0, 1}, {10, 1, 1}, {10, 10, 1}, {10, 11, 2}, {10, 20, 2}, {10, 21, 3},
		{64 << 20, 4 << 30, 64}, {0, 100, 1}, {-1, 100, 1},
	} {
		if got := (&hubclient.UploadParts{PartSize: tt.partSize}).Count(tt.size); got != tt.want {
			t.Errorf("Count(%d) of parts of %d = %d, want %d", tt.size, tt.partSize, got, tt.want)
		}
	}
}

func TestUploadURLPartsAnswers(t *testing.T) {
	// A client takes either answer to a request for parts, but only an
	// answer that covers the file: one URL per part, an id, a part size.
	// Parts it did not ask for are an error, as is an answer with neither.
	const (
		single = `{"ok": true, "key": "k1", "uploadUrl": "https://r2.example/k1?sig=x"}`
		three  = `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": ["https://r2.example/1", "https://r2.example/2", "https://r2.example/3"]}}`
	)
	for _, tt := range []struct {
		name   string
		answer string
		size   int64
		parts  bool
		err    string // "" for none
	}{
		{"parts, 3 of 10 for 25 bytes", three, 25, true, ""},
		{"parts, 3 of 10 for 30 bytes", three, 30, true, ""},
		{"parts, 1 of 10 for an empty file", `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": ["https://r2.example/1"]}}`, 0, true, ""},
		{"one URL to a client that can send parts", single, 25, true, ""},
		{"one URL, parts null", `{"ok": true, "key": "k1", "uploadUrl": "https://r2.example/k1", "parts": null}`, 25, false, ""},
		{"one URL", single, 25, false, ""},

		{"not ok", `{"ok": false, "key": "k1", "uploadUrl": "https://r2.example/k1"}`, 25, false, "answer lacks ok or key"},
		{"not ok, with parts", `{"ok": false, "key": "k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": ["a", "b", "c"]}}`, 25, true, "answer lacks ok or key"},
		{"no key", `{"ok": true, "uploadUrl": "https://r2.example/k1"}`, 25, false, "answer lacks ok or key"},
		{"no key, with parts", `{"ok": true, "parts": {"uploadId": "u1", "partSize": 10, "urls": ["a", "b", "c"]}}`, 25, true, "answer lacks ok or key"},
		{"parts not asked for", three, 25, false, "answer has parts, which were not asked for"},
		{"parts not asked for, beside one URL", `{"ok": true, "key": "k1", "uploadUrl": "https://r2.example/k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": ["a", "b", "c"]}}`, 25, false, "answer has parts, which were not asked for"},
		{"parts without an id", `{"ok": true, "key": "k1", "parts": {"uploadId": "", "partSize": 10, "urls": ["a", "b", "c"]}}`, 25, true, "answer's parts do not cover the file of 25 bytes"},
		{"parts of no size", `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": 0, "urls": ["a"]}}`, 25, true, "answer's parts do not cover the file of 25 bytes"},
		{"parts of a negative size", `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": -10, "urls": ["a"]}}`, 25, true, "answer's parts do not cover the file of 25 bytes"},
		{"a URL too few", three, 31, true, "answer's parts do not cover the file of 31 bytes"},
		{"a URL too many", three, 20, true, "answer's parts do not cover the file of 20 bytes"},
		{"no URLs", `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": []}}`, 5, true, "answer's parts do not cover the file of 5 bytes"},
		{"empty parts", `{"ok": true, "key": "k1", "parts": {}}`, 5, true, "answer's parts do not cover the file of 5 bytes"},
		{"neither parts nor URL, parts asked", `{"ok": true, "key": "k1"}`, 25, true, "answer lacks uploadUrl"},
		{"neither parts nor URL", `{"ok": true, "key": "k1", "uploadUrl": ""}`, 25, false, "answer lacks uploadUrl"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hub := newCannedHub(t, http.StatusOK, tt.answer)
			c := &hubclient.Client{HubURL: hub.URL + "/v1"}
			res, err := c.UploadURL(context.Background(), "acme", "clip", hubclient.UploadURLRequest{Filename: "v.mp4", Size: tt.size, MIME: "video/mp4", Parts: tt.parts})
			if tt.err != "" {
				var uerr *hubclient.UploadURLError
				if want := `upload-url failed: "v.mp4": ` + tt.err; err == nil || err.Error() != want || !errors.As(err, &uerr) || uerr.Filename != "v.mp4" {
					t.Errorf("answer %s: got %+v, %v; want the error %q", tt.answer, res, err, want)
				}
				if res != nil {
					t.Errorf("answer %s: got %+v beside the error", tt.answer, res)
				}
				return
			}
			if err != nil {
				t.Fatalf("answer %s: %v", tt.answer, err)
			}
			var want hubclient.UploadURLResponse
			json.Unmarshal([]byte(tt.answer), &want)
			if !reflect.DeepEqual(*res, want) {
				t.Errorf("got %+v (parts %+v), want %+v", res, res.Parts, want)
			}
		})
	}
}

func TestUploadURLAsksForPartsOnlyWhenItCan(t *testing.T) {
	// "parts" goes in the request only when true: a hub that does not
	// know it sees the request it always did.
	for _, parts := range []bool{false, true} {
		hub := newCannedHub(t, http.StatusOK, `{"ok": true, "key": "k1", "uploadUrl": "https://r2.example/k1"}`)
		c := &hubclient.Client{HubURL: hub.URL + "/v1"}
		if _, err := c.UploadURL(context.Background(), "acme", "clip", hubclient.UploadURLRequest{Filename: "v.mp4", Size: 5, MIME: "video/mp4", Parts: parts}); err != nil {
			t.Fatal(err)
		}
		want := `{"filename":"v.mp4","size":5,"mime":"video/mp4"}`
		if parts {
			want = `{"filename":"v.mp4","size":5,"mime":"video/mp4","parts":true}`
		}
		if got := hub.received(); len(got) != 1 || got[0].uri != "/v1/acme/clip/upload-url" || got[0].body != want {
			t.Errorf("parts %v: sent %+v, want the body %s", parts, got, want)
		}
	}
}

func TestCompleteUpload(t *testing.T) {
	req := hubclient.CompleteUploadRequest{Key: "uploads/acme/clip/k1", UploadID: "u1",
		Parts: []hubclient.UploadedPart{{Number: 1, ETag: `"a1"`}, {Number: 2, ETag: `"b2"`}}}
	for _, tt := range []struct {
		name   string
		status int
		answer string
		// status is the *HubError's, 0 for none; message is in the error.
		hubStatus int
		message   string
	}{
		{"ok", http.StatusOK, `{"ok": true}`, 0, ""},
		{"ok: false", http.StatusOK, `{"ok": false}`, 0, `answer says "ok": false`},
		{"no ok", http.StatusOK, `{}`, 0, `answer says "ok": false`},
		{"not JSON", http.StatusOK, `<html>joined</html>`, 0, "answer is not the expected JSON"},
		{"a part missing", http.StatusBadRequest, `{"ok": false, "error": "part 2: ETag \"b2\" is not the part stored"}`, http.StatusBadRequest, `part 2: ETag "b2" is not the part stored`},
		{"not this form's", http.StatusNotFound, `{"ok": false, "error": "no such upload"}`, http.StatusNotFound, "no such upload"},
		{"already submitted", http.StatusConflict, `{"ok": false, "error": "already submitted"}`, http.StatusConflict, "already submitted"},
		{"failing", http.StatusServiceUnavailable, `{"ok": false, "error": "disk full"}`, http.StatusServiceUnavailable, "disk full"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hub := newCannedHub(t, tt.status, tt.answer)
			c := &hubclient.Client{HubURL: hub.URL + "/v1"}
			err := c.CompleteUpload(hubclient.WithVisitor(context.Background(), "203.0.113.7"), "acme", "clip", req)
			sent := hub.received()
			body, _ := json.Marshal(req)
			if len(sent) != 1 || sent[0].method != http.MethodPost || sent[0].uri != "/v1/acme/clip/upload-complete" ||
				sent[0].contentType != "application/json" || sent[0].forwardedFor != "203.0.113.7" || sent[0].body != string(body) {
				t.Errorf("sent %+v, want POST /v1/acme/clip/upload-complete of %s for 203.0.113.7", sent, body)
			}
			if tt.message == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			var uerr *hubclient.UploadError
			if !errors.As(err, &uerr) || !strings.HasPrefix(err.Error(), hubclient.PrefixUpload) || !strings.Contains(err.Error(), tt.message) || !strings.Contains(err.Error(), req.Key) {
				t.Errorf("error %v, want an *UploadError with %q", err, tt.message)
			}
			var herr *hubclient.HubError
			switch answered := errors.As(err, &herr); {
			case tt.hubStatus == 0 && answered:
				t.Errorf("error %v is a *HubError", err)
			case tt.hubStatus != 0 && (!answered || herr.StatusCode != tt.hubStatus || herr.Message != tt.message):
				t.Errorf("error %v, want a *HubError %d %q", err, tt.hubStatus, tt.message)
			}
		})
	}
}

func TestCompleteUploadUnreachable(t *testing.T) {
	hub := httptest.NewServer(http.NotFoundHandler())
	hub.Close()
	c := &hubclient.Client{HubURL: hub.URL + "/v1"}
	err := c.CompleteUpload(context.Background(), "acme", "clip", hubclient.CompleteUploadRequest{Key: "k1", UploadID: "u1", Parts: []hubclient.UploadedPart{{Number: 1, ETag: `"a"`}}})
	var uerr *hubclient.UploadError
	var herr *hubclient.HubError
	if !errors.As(err, &uerr) || errors.As(err, &herr) || !strings.HasPrefix(err.Error(), hubclient.PrefixUpload) {
		t.Errorf("error %v, want an *UploadError that is no *HubError", err)
	}
	// A form that cannot be named is an error before any request.
	if err := c.CompleteUpload(context.Background(), "acme", "..", hubclient.CompleteUploadRequest{Key: "k1"}); !errors.As(err, &uerr) {
		t.Errorf("slug \"..\": error %v, want an *UploadError", err)
	}
}
