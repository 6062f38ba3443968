package hubclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

func TestSubmitSplitsValuesOntoTheWire(t *testing.T) {
	h := newHub(t)
	values := map[string]any{
		"name":          "Jane",
		"tags":          []string{"a", "b"},
		"age":           42,
		"empty":         []hubclient.File{},
		"files":         []hubclient.File{memFile("a.txt", "text/plain", "FILE-A-BODY"), memFile("b.png", "image/png", "FILE-B-BODY")},
		"cv":            memFile("cv.pdf", "application/pdf", "FILE-CV-BODY"),
		"_captchaToken": "tok-123",
		"_hp":           "",
		"_hp_company":   "",
		"_hpcount":      3, // not a string: stays in the payload
	}
	before := maps.Clone(values)
	res, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(values, before) {
		t.Error("OnSubmit changed the caller's values")
	}
	subs := h.Submissions()
	if len(subs) != 1 || res.SubmissionID != subs[0].ID {
		t.Fatalf("submissions %v, answer %+v", subs, res)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(subs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var members []string
	for k := range body {
		members = append(members, k)
	}
	slices.Sort(members)
	if want := []string{"_hp", "_hp_company", "attachments", "captchaToken", "payload"}; !slices.Equal(members, want) {
		t.Errorf("top-level members %v, want %v", members, want)
	}
	var payload map[string]any
	json.Unmarshal(body["payload"], &payload)
	wantPayload := map[string]any{"name": "Jane", "tags": []any{"a", "b"}, "age": 42.0, "empty": []any{}, "_hpcount": 3.0}
	if !reflect.DeepEqual(payload, wantPayload) {
		t.Errorf("payload %v, want %v", payload, wantPayload)
	}
	if string(body["captchaToken"]) != `"tok-123"` || string(body["_hp"]) != `""` {
		t.Errorf("captchaToken %s, _hp %s", body["captchaToken"], body["_hp"])
	}
	if containsAny(subs[0].Body, "FILE-A-BODY", "FILE-B-BODY", "FILE-CV-BODY") {
		t.Error("file bytes reached the submit body")
	}

	// Attachments carry the keys upload-url handed out, in field order.
	issued := map[string]string{} // filename -> key
	for _, r := range requestsTo(h, "/upload-url") {
		var req hubclient.UploadURLRequest
		json.Unmarshal(r.Body, &req)
		for _, u := range []string{"a.txt", "b.png", "cv.pdf"} {
			if up, ok := findUpload(h, subs[0].Request.Attachments, u); ok && up.Request == req {
				issued[u] = up.Key
			}
		}
	}
	att := subs[0].Request.Attachments
	want := []hubclient.Attachment{
		{Filename: "cv.pdf", Size: 12, MIME: "application/pdf", Field: "cv"},
		{Filename: "a.txt", Size: 11, MIME: "text/plain", Field: "files"},
		{Filename: "b.png", Size: 11, MIME: "image/png", Field: "files"},
	}
	if len(att) != len(want) || len(issued) != 3 {
		t.Fatalf("attachments %+v, issued %v", att, issued)
	}
	for i := range want {
		want[i].Key = issued[want[i].Filename]
		if att[i] != want[i] {
			t.Errorf("attachment %d = %+v, want %+v", i, att[i], want[i])
		}
	}
	assertStored(t, h, issued["a.txt"], "text/plain", "FILE-A-BODY")
	assertStored(t, h, issued["b.png"], "image/png", "FILE-B-BODY")
	assertStored(t, h, issued["cv.pdf"], "application/pdf", "FILE-CV-BODY")
}

func findUpload(h *fakehub.Hub, att []hubclient.Attachment, filename string) (fakehub.Upload, bool) {
	for _, a := range att {
		if a.Filename == filename {
			return h.Upload(a.Key)
		}
	}
	return fakehub.Upload{}, false
}

func TestSubmitWithoutFilesSendsNoAttachments(t *testing.T) {
	h := newHub(t)
	if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{"a": "1"}); err != nil {
		t.Fatal(err)
	}
	if n := len(requestsTo(h, "/upload-url")); n != 0 {
		t.Errorf("%d upload-url calls without files", n)
	}
	body := string(h.Submissions()[0].Body)
	if body != `{"payload":{"a":"1"}}` {
		t.Errorf("body %s", body)
	}
}

func TestSubmitSendsUploadedFilesAsTheyAre(t *testing.T) {
	// A browser sent the files straight to storage: the values carry
	// their attachments, which reach the submit route with their field,
	// and nothing is uploaded.
	h := newHub(t)
	ctx := context.Background()
	client := &hubclient.Client{HubURL: h.URL}
	browser := func(name, mime, body string) hubclient.Attachment {
		t.Helper()
		res, err := client.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: name, Size: int64(len(body)), MIME: mime})
		if err == nil {
			err = client.Put(ctx, res.UploadURL, hubclient.NewFile(name, mime, int64(len(body)), func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }))
		}
		if err != nil {
			t.Fatal(err)
		}
		return hubclient.Attachment{Key: res.Key, Filename: name, Size: int64(len(body)), MIME: mime}
	}
	cv := browser("cv.pdf", "application/pdf", "%PDF")
	photos := []hubclient.Attachment{browser("a.png", "image/png", "A"), browser("b.png", "image/png", "BB")}
	issued := len(requestsTo(h, "/upload-url"))
	values := map[string]any{"name": "Ada", "cv": cv, "photos": photos}
	res, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(ctx, values)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(requestsTo(h, "/upload-url")) - issued; n != 0 {
		t.Errorf("%d upload-url calls for files already uploaded", n)
	}
	var sent hubclient.SubmitRequest
	if err := json.Unmarshal(h.Submissions()[0].Body, &sent); err != nil {
		t.Fatal(err)
	}
	cv.Field = "cv"
	photos[0].Field, photos[1].Field = "photos", "photos"
	want := []hubclient.Attachment{cv, photos[0], photos[1]}
	if !reflect.DeepEqual(sent.Attachments, want) {
		t.Errorf("attachments %+v, want %+v", sent.Attachments, want)
	}
	if !reflect.DeepEqual(res.Attachments, want) {
		t.Errorf("the answer's attachments %+v, want %+v", res.Attachments, want)
	}
	if _, ok := sent.Payload["cv"]; ok {
		t.Errorf("payload carries the file: %s", h.Submissions()[0].Body)
	}
}

func TestSubmitCaptchaTokenNames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values map[string]any
		want   string
	}{
		{"current", map[string]any{"_captchaToken": "new"}, "new"},
		{"legacy", map[string]any{"_turnstile": "old"}, "old"},
		{"both: current wins", map[string]any{"_turnstile": "old", "_captchaToken": "new"}, "new"},
		{"list from a form post", map[string]any{"_captchaToken": []string{"", "listed"}}, "listed"},
		{"none", map[string]any{"x": "1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHub(t)
			if _, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), tc.values); err != nil {
				t.Fatal(err)
			}
			req := h.Submissions()[0].Request
			if req.CaptchaToken != tc.want {
				t.Errorf("captchaToken %q, want %q", req.CaptchaToken, tc.want)
			}
			if _, ok := req.Payload["_turnstile"]; ok {
				t.Error("_turnstile left in the payload")
			}
			if _, ok := req.Payload["_captchaToken"]; ok {
				t.Error("_captchaToken left in the payload")
			}
		})
	}
}

func TestSubmitNonEmptyHoneypotIsStillSent(t *testing.T) {
	h := newHub(t)
	res, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{"_hp_url": "http://spam", "name": "bot"})
	if err != nil || !res.OK {
		t.Fatalf("answer %+v, %v", res, err)
	}
	// The hub discards it silently (PROTOCOL.md §4 rule 2); it was sent top-level.
	reqs := requestsTo(h, "/submit")
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"_hp_url":"http://spam"`) || len(h.Submissions()) != 0 {
		t.Errorf("sent %d submit requests (%s), stored %d", len(reqs), reqs[0].Body, len(h.Submissions()))
	}
}

// inflight counts requests under way and the most seen at once; each
// request waits until target are under way together or the wait gives up.
type inflight struct {
	mu      sync.Mutex
	cond    *sync.Cond
	now     int
	max     int
	target  int
	timeout time.Duration
}

func newInflight(target int) *inflight {
	f := &inflight{target: target, timeout: 5 * time.Second}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// enter returns whether target requests were under way together.
func (f *inflight) enter() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now++
	f.max = max(f.max, f.now)
	f.cond.Broadcast()
	deadline := time.AfterFunc(f.timeout, func() { f.mu.Lock(); f.cond.Broadcast(); f.mu.Unlock() })
	defer deadline.Stop()
	start := time.Now()
	for f.max < f.target && time.Since(start) < f.timeout {
		f.cond.Wait()
	}
	return f.max >= f.target
}

// waitFor waits until n requests have entered at once, or the wait gives
// up, without counting as one of them.
func (f *inflight) waitFor(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	deadline := time.AfterFunc(f.timeout, func() { f.mu.Lock(); f.cond.Broadcast(); f.mu.Unlock() })
	defer deadline.Stop()
	for start := time.Now(); f.max < n && time.Since(start) < f.timeout; {
		f.cond.Wait()
	}
}

func (f *inflight) leave() {
	f.mu.Lock()
	f.now--
	f.mu.Unlock()
}

func TestUploadsOverlap(t *testing.T) {
	for _, tc := range []struct{ files, concurrency, want int }{
		{files: 4, concurrency: 0, want: 4}, // default allows all four
		{files: 6, concurrency: 2, want: 2},
	} {
		h := newHub(t)
		gate := newInflight(tc.want)
		h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodPut {
				defer gate.leave()
				if !gate.enter() {
					http.Error(w, "uploads did not overlap", http.StatusTeapot)
					return true
				}
			}
			return false
		}
		var files []hubclient.File
		for i := range tc.files {
			files = append(files, memFile(strings.Repeat("f", i+1)+".bin", "application/octet-stream", "x"))
		}
		_, err := submitter(h, hubclient.SubmitOptions{UploadConcurrency: tc.concurrency}).OnSubmit(context.Background(), map[string]any{"files": files})
		if err != nil {
			t.Fatalf("%d files, concurrency %d: %v", tc.files, tc.concurrency, err)
		}
		if gate.max != tc.want {
			t.Errorf("%d files, concurrency %d: at most %d PUTs at once, want %d", tc.files, tc.concurrency, gate.max, tc.want)
		}
	}
}

func TestFirstUploadFailureCancelsTheOthers(t *testing.T) {
	h := newHub(t)
	blocked := newInflight(3)
	var mu sync.Mutex
	cancelled := 0
	h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		switch {
		case r.Method == http.MethodPut:
			// The server notices a client hanging up only once the
			// body is read.
			io.Copy(io.Discard, r.Body)
			blocked.enter()
			select { // hold the PUT until the client gives up on it
			case <-r.Context().Done():
				mu.Lock()
				cancelled++
				mu.Unlock()
			case <-time.After(5 * time.Second):
			}
			return true
		case strings.HasSuffix(r.URL.Path, "/upload-url"):
			var req hubclient.UploadURLRequest
			json.NewDecoder(r.Body).Decode(&req)
			if req.Filename == "bad.txt" {
				blocked.waitFor(3) // fail once the three others are mid-PUT
				http.Error(w, `{"ok":false,"error":"storage is full"}`, http.StatusInsufficientStorage)
				return true
			}
			r.Body = http.NoBody
			body, _ := json.Marshal(req)
			r.Body = readCloser(body)
		}
		return false
	}
	values := map[string]any{"a": memFile("a.txt", "text/plain", "a"), "b": memFile("b.txt", "text/plain", "b"),
		"c": memFile("c.txt", "text/plain", "c"), "d": memFile("bad.txt", "text/plain", "d")}
	start := time.Now()
	_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values)
	var uerr *hubclient.UploadURLError
	if !errors.As(err, &uerr) || !strings.HasPrefix(err.Error(), "upload-url failed: ") || uerr.Filename != "bad.txt" {
		t.Fatalf("error %v, want an upload-url failure of bad.txt", err)
	}
	var herr *hubclient.HubError
	if !errors.As(err, &herr) || herr.StatusCode != http.StatusInsufficientStorage || herr.Message != "storage is full" {
		t.Errorf("hub error %+v", herr)
	}
	if time.Since(start) > 4*time.Second {
		t.Error("OnSubmit waited for the blocked uploads instead of cancelling them")
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return cancelled == 3 })
	if n := len(requestsTo(h, "/submit")); n != 0 {
		t.Errorf("%d submit requests after a failed upload", n)
	}
}

func TestFailureStopsUploadsNotYetStarted(t *testing.T) {
	h := newHub(t)
	h.FailNext(fakehub.RouteUploadURL, http.StatusBadRequest, "too large")
	values := map[string]any{"files": []hubclient.File{memFile("1", "", "1"), memFile("2", "", "2"), memFile("3", "", "3")}}
	_, err := submitter(h, hubclient.SubmitOptions{UploadConcurrency: 1}).OnSubmit(context.Background(), values)
	if err == nil {
		t.Fatal("no error")
	}
	if n := len(requestsTo(h, "/upload-url")); n != 1 {
		t.Errorf("%d upload-url calls after the first failed, want 1", n)
	}
}

func TestErrorPrefixes(t *testing.T) {
	file := map[string]any{"f": memFile("f.txt", "text/plain", "body"), "name": "x"}
	for _, tc := range []struct {
		name   string
		route  fakehub.Route
		status int
		values map[string]any
		prefix string
		target any
	}{
		{"upload-url refused", fakehub.RouteUploadURL, 413, file, "upload-url failed: ", new(*hubclient.UploadURLError)},
		{"PUT refused", fakehub.RoutePut, 403, file, "upload PUT to R2 failed: ", new(*hubclient.UploadError)},
		{"submit refused", fakehub.RouteSubmit, 422, file, "submit failed: ", new(*hubclient.SubmitError)},
		{"submit server error", fakehub.RouteSubmit, 503, map[string]any{"a": "b"}, "submit failed: ", new(*hubclient.SubmitError)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHub(t)
			h.FailNext(tc.route, tc.status, "nope")
			_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), tc.values)
			if err == nil || !strings.HasPrefix(err.Error(), tc.prefix) {
				t.Fatalf("error %v, want prefix %q", err, tc.prefix)
			}
			if !errors.As(err, tc.target) {
				t.Errorf("errors.As(%T) failed for %v", tc.target, err)
			}
			var herr *hubclient.HubError
			if !errors.As(err, &herr) || herr.StatusCode != tc.status {
				t.Errorf("hub error %+v, want status %d", herr, tc.status)
			}
			if strings.Contains(err.Error(), "X-Signature") {
				t.Errorf("error repeats the presigned URL's query: %v", err)
			}
		})
	}
}

func TestSubmitOKFalseIsAnError(t *testing.T) {
	h := newHub(t)
	h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":false,"error":"closed for the holidays","fields":{"email":"required"}}`))
		return true
	}
	_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), map[string]any{})
	var herr *hubclient.HubError
	if !errors.As(err, &herr) || herr.Fields["email"] != "required" {
		t.Fatalf("error %v", err)
	}
	if want := "submit failed: POST " + h.URL + "/acme/contact/submit: 200 OK: closed for the holidays (email: required)"; err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
}

func TestSubmitRefusesUnsendableValues(t *testing.T) {
	for name, values := range map[string]map[string]any{
		"file mixed into a list": {"x": []any{"a", memFile("f", "", "1")}},
		"file nested in a map":   {"x": map[string]any{"f": memFile("f", "", "1")}},
		"token not a string":     {"_captchaToken": 12},
		"nil file in a list":     {"x": []hubclient.File{nil}},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHub(t)
			_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(context.Background(), values)
			var serr *hubclient.SubmitError
			if !errors.As(err, &serr) {
				t.Fatalf("error %v, want a *SubmitError", err)
			}
			if n := len(h.Requests()); n != 0 {
				t.Errorf("%d requests sent for unsendable values", n)
			}
		})
	}
}

func TestSubmitHonoursContext(t *testing.T) {
	h := newHub(t)
	h.Latency = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := submitter(h, hubclient.SubmitOptions{}).OnSubmit(ctx, map[string]any{"f": memFile("f", "", "1")})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "upload-url failed: ") {
		t.Errorf("error %v", err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 5s")
}
