package handlers_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// uploadAnswer is the upload route's answer.
type uploadAnswer struct {
	UploadURL, Key, Ticket, Error string
}

// rendered opens the form as a browser would and returns its rendering's
// submission key and its upload route.
func rendered(t *testing.T, a *app, form string) (rendering, route string) {
	t.Helper()
	_, doc := a.get(t, "/hubform/"+form, true)
	rendering = doc.Find(`input[name="`+hubclient.IdempotencyKeyField+`"]`).AttrOr("value", "")
	route = doc.Find("form").AttrOr("data-hubform-upload", "")
	if rendering == "" || route == "" {
		t.Fatalf("the form %s has no rendering key or no upload route", form)
	}
	return rendering, route
}

// askUpload posts to the upload route as the script does.
func askUpload(t *testing.T, a *app, route string, values url.Values) (int, uploadAnswer) {
	t.Helper()
	res, err := http.PostForm(a.srv.URL+route, values)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ans uploadAnswer
	if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
		t.Fatalf("upload route answered %s with no JSON: %v", res.Status, err)
	}
	return res.StatusCode, ans
}

// putFile sends body to an upload address, as the browser does.
func putFile(t *testing.T, address, mime, body string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, address, strings.NewReader(body))
	req.Header.Set("Content-Type", mime)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("PUT: %s", res.Status)
	}
}

func TestFilesUploadedFromTheBrowser(t *testing.T) {
	// The script asks the app for an address, sends the file there and
	// posts the ticket in its place: the hub stores the submission with
	// the file, and OnSuccess gets its attachment.
	a := newApp(t)
	rendering, route := rendered(t, a, "acme/contact")
	status, ans := askUpload(t, a, route, url.Values{"field": {"files"}, "filename": {"cv.pdf"}, "size": {"5"}, "mime": {"application/pdf"}, hubclient.IdempotencyKeyField: {rendering}})
	if status != http.StatusOK || ans.UploadURL == "" || ans.Key == "" || !strings.HasPrefix(ans.Ticket, "hubform-upload:") {
		t.Fatalf("upload route: %d %+v", status, ans)
	}
	putFile(t, ans.UploadURL, "application/pdf", "%PDF-")
	res, doc := a.post(t, "/hubform/acme/contact/submit", true,
		part{name: "name", value: "Ada"}, part{name: "email", value: "ada@example.com"},
		part{name: hubclient.IdempotencyKeyField, value: rendering}, part{name: "files", value: ans.Ticket})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("post: %s\n%s", res.Status, text(doc, "body"))
	}
	subs := a.hub.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 || subs[0].Attachments[0].Key != ans.Key {
		t.Fatalf("stored %+v", subs)
	}
	if got := string(a.hub.File(ans.Key)); got != "%PDF-" {
		t.Errorf("stored file %q", got)
	}
	want := []hubclient.Attachment{{Key: ans.Key, Filename: "cv.pdf", Size: 5, MIME: "application/pdf", Field: "files"}}
	if len(a.calls.successes) != 1 || !reflect.DeepEqual(a.calls.successes[0]["files"], want) {
		t.Errorf("OnSuccess got %v, want files %v", a.calls.successes, want)
	}
	var bound struct {
		Files []hubclient.Attachment `form:"files"`
	}
	if err := handlers.Bind(a.calls.successes[0], &bound); err != nil || !reflect.DeepEqual(bound.Files, want) {
		t.Errorf("Bind: %+v, %v", bound, err)
	}
}

func TestUploadTicketsAreBound(t *testing.T) {
	// A ticket counts only in a post of the form, the field and the
	// rendering it was issued for, unchanged: anything else is refused
	// with a word on the field, and the hub never sees its key.
	a := newApp(t)
	a.hub.WriteForm("acme", "other", contactForm)
	twoFiles := strings.Replace(contactForm, `{"name": "_hp"`, `{"name": "photo", "type": "file", "label": "Photo"}, {"name": "_hp"`, 1)
	a.hub.WriteForm("acme", "contact", strings.Replace(twoFiles, `"files", "_hp"]`, `"files", "photo", "_hp"]`, 1))
	// issue returns a fresh rendering and a ticket of a file uploaded from
	// it for the field files: each post stores a submission of its own.
	issue := func() (rendering, ticket, key string) {
		rendering, route := rendered(t, a, "acme/contact")
		_, ans := askUpload(t, a, route, url.Values{"field": {"files"}, "filename": {"a.txt"}, "size": {"1"}, "mime": {"text/plain"}, hubclient.IdempotencyKeyField: {rendering}})
		putFile(t, ans.UploadURL, "text/plain", "A")
		return rendering, ans.Ticket, ans.Key
	}
	// forge changes one bit of the ticket's signature.
	forge := func(ticket string) string {
		dot := strings.LastIndex(ticket, ".")
		sig, err := base64.RawURLEncoding.DecodeString(ticket[dot+1:])
		if err != nil {
			t.Fatal(err)
		}
		sig[0] ^= 1
		return ticket[:dot+1] + base64.RawURLEncoding.EncodeToString(sig)
	}
	for _, tt := range []struct {
		name string
		post func() (form, rendering, field, value string)
	}{
		{"another rendering", func() (string, string, string, string) {
			_, ticket, _ := issue()
			other, _ := rendered(t, a, "acme/contact")
			return "acme/contact", other, "files", ticket
		}},
		{"another form", func() (string, string, string, string) {
			rendering, ticket, _ := issue()
			return "acme/other", rendering, "files", ticket
		}},
		{"another field", func() (string, string, string, string) {
			rendering, ticket, _ := issue()
			return "acme/contact", rendering, "photo", ticket
		}},
		{"a forged signature", func() (string, string, string, string) {
			rendering, ticket, _ := issue()
			return "acme/contact", rendering, "files", forge(ticket)
		}},
		{"another spelling of its signature", func() (string, string, string, string) {
			// The last character of 43 carries 2 bits that decode to
			// nothing: a lenient decoder reads the same signature.
			rendering, ticket, _ := issue()
			const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			last := strings.IndexByte(alphabet, ticket[len(ticket)-1])
			return "acme/contact", rendering, "files", ticket[:len(ticket)-1] + string(alphabet[last^1])
		}},
		{"a key instead of a ticket", func() (string, string, string, string) {
			rendering, _, key := issue()
			return "acme/contact", rendering, "files", key
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			form, rendering, field, value := tt.post()
			before := len(a.hub.Submissions())
			res, doc := a.post(t, "/hubform/"+form+"/submit", true,
				part{name: "name", value: "Ada"}, part{name: "email", value: "ada@example.com"},
				part{name: hubclient.IdempotencyKeyField, value: rendering}, part{name: field, value: value})
			if n := len(a.hub.Submissions()); n != before {
				t.Fatalf("post: %s, %d submissions stored, want none", res.Status, n-before)
			}
			// htmx swaps the answer in whatever its status.
			if got := text(doc, "#hubform-acme-"+strings.TrimPrefix(form, "acme/")+"-"+field+"-error"); got != "Please choose your files again." {
				t.Errorf("the field %s says %q", field, got)
			}
		})
	}
	// The same post with its own ticket carries the file.
	rendering, ticket, key := issue()
	a.post(t, "/hubform/acme/contact/submit", true,
		part{name: "name", value: "Ada"}, part{name: "email", value: "ada@example.com"},
		part{name: hubclient.IdempotencyKeyField, value: rendering}, part{name: "files", value: ticket})
	if subs := a.hub.Submissions(); len(subs[len(subs)-1].Attachments) != 1 || subs[len(subs)-1].Attachments[0].Key != key {
		t.Errorf("the ticket's own post stored %+v", subs[len(subs)-1])
	}
}

func TestUploadRouteRefusals(t *testing.T) {
	// What the upload route refuses, it refuses before any byte is sent,
	// with a message for the visitor and nothing of the hub's.
	a := newApp(t)
	a.hub.WriteForm("acme", "closed", `{"fields": [{"name": "files", "type": "file"}], "steps": [{"id": "s", "fields": ["files"]}], "meta": {"closed": true}}`)
	rendering, route := rendered(t, a, "acme/contact")
	ask := func(field, size, key string) url.Values {
		return url.Values{"field": {field}, "filename": {"big.bin"}, "size": {size}, "mime": {"application/octet-stream"}, hubclient.IdempotencyKeyField: {key}}
	}
	for _, tt := range []struct {
		name   string
		route  string
		values url.Values
		status int
		says   string
	}{
		{"over the form's size limit", route, ask("files", "134217729", rendering), http.StatusRequestEntityTooLarge, "A file was not accepted: check its type and size."},
		{"a field that takes no files", route, ask("name", "1", rendering), http.StatusBadRequest, "The form could not be read. Please try again."},
		{"a field the form lacks", route, ask("nope", "1", rendering), http.StatusBadRequest, "The form could not be read. Please try again."},
		{"no size", route, ask("files", "", rendering), http.StatusBadRequest, "The form could not be read. Please try again."},
		{"no rendering", route, ask("files", "1", ""), http.StatusBadRequest, "The form could not be read. Please try again."},
		{"a closed form", "/hubform/acme/closed/upload-url", ask("files", "1", rendering), http.StatusForbidden, "This form is closed and no longer takes submissions."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, ans := askUpload(t, a, tt.route, tt.values)
			if status != tt.status || ans.Error != tt.says || ans.UploadURL != "" || ans.Ticket != "" {
				t.Errorf("answered %d %+v, want %d %q", status, ans, tt.status, tt.says)
			}
		})
	}
	a.hub.FailNext("/upload-url", http.StatusInternalServerError, "database on fire at 10.0.0.7:5432")
	status, ans := askUpload(t, a, route, ask("files", "1", rendering))
	if status != http.StatusBadGateway || ans.Error != "A file could not be uploaded. Please try again." {
		t.Errorf("a failing hub: answered %d %+v", status, ans)
	}
}

func TestPostFiles(t *testing.T) {
	// By default a form with files offers the upload route to its script;
	// with PostFiles it offers none, and files travel with the post.
	for _, postFiles := range []bool{false, true} {
		a := newApp(t, func(cfg *handlers.Config) { cfg.PostFiles = postFiles })
		_, doc := a.get(t, "/hubform/acme/contact", true)
		route, offered := doc.Find("form").Attr("data-hubform-upload")
		if offered == postFiles || (offered && route != "/hubform/acme/contact/upload-url") {
			t.Errorf("PostFiles %v: the form offers the upload route %v (%q)", postFiles, offered, route)
		}
	}
}

// clipForm takes files of up to 1 MiB in two fields; its hub, started by
// newClipApp, offers parts of clipPart bytes for files of 4 parts or more.
const (
	clipForm = `{
  "fields": [
    {"name": "video", "type": "file", "label": "Video"},
    {"name": "photo", "type": "file", "label": "Photo"}
  ],
  "steps": [{"id": "s", "fields": ["video", "photo"]}],
  "hub": {"maxFileSize": 1048576}
}`
	clipPart = 64 << 10
)

// hubRequest is a request the hub received.
type hubRequest struct{ method, path, forwardedFor string }

// hubRequests records the requests a hub receives.
type hubRequests struct {
	mu   sync.Mutex
	list []hubRequest
}

// to counts the requests whose path ends in suffix.
func (l *hubRequests) to(suffix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.list {
		if strings.HasSuffix(r.path, suffix) {
			n++
		}
	}
	return n
}

// last returns the last request whose path ends in suffix.
func (l *hubRequests) last(suffix string) (hubRequest, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.list) - 1; i >= 0; i-- {
		if strings.HasSuffix(l.list[i].path, suffix) {
			return l.list[i], true
		}
	}
	return hubRequest{}, false
}

// newClipApp serves acme/clip and acme/contact from a hub whose parts are
// of clipPart bytes, and records every request the hub receives (those
// FailNext answers included).
func newClipApp(t *testing.T) (*app, *hubRequests) {
	t.Helper()
	a := &app{calls: &calls{}}
	a.hub = hubtest.Start(t, map[string]string{"acme/clip": clipForm, "acme/contact": contactForm},
		func(c *protocol.Config) { c.UploadPartSize = clipPart })
	log := &hubRequests{}
	served := a.hub.Server.Config.Handler
	a.hub.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.mu.Lock()
		log.list = append(log.list, hubRequest{r.Method, r.URL.Path, r.Header.Get("X-Forwarded-For")})
		log.mu.Unlock()
		served.ServeHTTP(w, r)
	})
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)
	return a, log
}

// partsAnswer is the upload route's answer with its parts.
type partsAnswer struct {
	UploadURL, Key, Ticket, Error, Complete, Renew string
	Parts                                          *hubclient.UploadParts
}

// postJSON posts values to route and decodes its JSON answer, returning
// the answer's members as well, to check that none but those expected
// were sent.
func postJSON(t *testing.T, a *app, route string, values url.Values) (int, partsAnswer, map[string]json.RawMessage, string) {
	t.Helper()
	res, err := http.PostForm(a.srv.URL+route, values)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var ans partsAnswer
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &ans) != nil || json.Unmarshal(body, &members) != nil {
		t.Fatalf("%s answered %s with no JSON: %s", route, res.Status, body)
	}
	return res.StatusCode, ans, members, string(body)
}

// putParts sends body in the parts ans names, as the browser does, and
// returns their ETags in order.
func putParts(t *testing.T, ans partsAnswer, body []byte) []string {
	t.Helper()
	etags := make([]string, len(ans.Parts.URLs))
	for i, address := range ans.Parts.URLs {
		start := int64(i) * ans.Parts.PartSize
		end := min(start+ans.Parts.PartSize, int64(len(body)))
		req, _ := http.NewRequest(http.MethodPut, address, bytes.NewReader(body[start:end]))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if etags[i] = res.Header.Get("ETag"); res.StatusCode/100 != 2 || etags[i] == "" {
			t.Fatalf("PUT part %d: %s, ETag %q", i+1, res.Status, etags[i])
		}
	}
	return etags
}

// members lists the names of an answer's members, sorted.
func members(m map[string]json.RawMessage) []string {
	return slices.Sorted(maps.Keys(m))
}

func TestUploadInParts(t *testing.T) {
	// A large file goes in parts when the script can send them: the
	// upload route answers the hub's parts and the app's route that has
	// them joined; once joined, the ticket carries the file as after one
	// PUT.
	a, hubLog := newClipApp(t)
	rendering, route := rendered(t, a, "acme/clip")
	body := make([]byte, 5*clipPart+123)
	rand.Read(body)
	ask := func(size int, parts bool) url.Values {
		v := url.Values{"field": {"video"}, "filename": {"clip.mp4"}, "size": {strconv.Itoa(size)}, "mime": {"video/mp4"}, hubclient.IdempotencyKeyField: {rendering}}
		if parts {
			v.Set("parts", "1")
		}
		return v
	}
	// One PUT for a script that cannot send parts, and for a small file.
	for _, tt := range []struct {
		name  string
		size  int
		parts bool
	}{{"large, no parts=1", len(body), false}, {"small, parts=1", 4*clipPart - 1, true}} {
		status, ans, m, raw := postJSON(t, a, route, ask(tt.size, tt.parts))
		if status != http.StatusOK || ans.UploadURL == "" || ans.Parts != nil || !slices.Equal(members(m), []string{"key", "ticket", "uploadUrl"}) {
			t.Errorf("%s: answered %d %s, want uploadUrl, key and ticket alone", tt.name, status, raw)
		}
	}

	status, ans, m, raw := postJSON(t, a, route+"?locale=de", ask(len(body), true))
	if status != http.StatusOK || !slices.Equal(members(m), []string{"complete", "key", "parts", "renew", "ticket"}) {
		t.Fatalf("large, parts=1: answered %d %s, want parts, complete, renew, key and ticket", status, raw)
	}
	if ans.Parts.UploadID == "" || ans.Parts.PartSize != clipPart || len(ans.Parts.URLs) != 6 {
		t.Fatalf("parts %+v, want 6 of %d", ans.Parts, clipPart)
	}
	if want := "/hubform/acme/clip/upload-complete?locale=de"; ans.Complete != want {
		t.Errorf("complete %q, want %q", ans.Complete, want)
	}
	if want := "/hubform/acme/clip/upload-parts?locale=de"; ans.Renew != want {
		t.Errorf("renew %q, want %q", ans.Renew, want)
	}
	// The parts' URLs signed again, for an upload that outlasts them.
	renew := url.Values{"field": {"video"}, "ticket": {ans.Ticket}, hubclient.IdempotencyKeyField: {rendering}, "uploadId": {ans.Parts.UploadID}}
	status, renewed, m, raw := postJSON(t, a, ans.Renew, renew)
	if status != http.StatusOK || renewed.Key != ans.Key || !slices.Equal(members(m), []string{"key", "parts"}) ||
		renewed.Parts.UploadID != ans.Parts.UploadID || len(renewed.Parts.URLs) != 6 {
		t.Fatalf("renew: answered %d %s, want 200, the key and the same upload's parts", status, raw)
	}
	if r, _ := hubLog.last("/upload-parts"); r.method != http.MethodPost || r.path != "/v1/acme/clip/upload-parts" || r.forwardedFor != "127.0.0.1" {
		t.Errorf("the hub was asked %+v, want POST /v1/acme/clip/upload-parts for 127.0.0.1", r)
	}
	renewed.Ticket = ans.Ticket
	etags := putParts(t, renewed, body)
	complete := url.Values{"field": {"video"}, "ticket": {ans.Ticket}, hubclient.IdempotencyKeyField: {rendering}, "uploadId": {ans.Parts.UploadID}, "etag": etags}
	status, done, m, raw := postJSON(t, a, ans.Complete, complete)
	if status != http.StatusOK || done.Key != ans.Key || !slices.Equal(members(m), []string{"key"}) {
		t.Fatalf("complete: answered %d %s, want 200 and the key %s", status, raw, ans.Key)
	}
	if n := hubLog.to("/upload-complete"); n != 1 {
		t.Errorf("the hub was asked %d times to complete, want once", n)
	}
	// The hub is told the visitor's address, as for the upload's address.
	if r, _ := hubLog.last("/upload-complete"); r.method != http.MethodPost || r.path != "/v1/acme/clip/upload-complete" || r.forwardedFor != "127.0.0.1" {
		t.Errorf("the hub was asked %+v, want POST /v1/acme/clip/upload-complete for 127.0.0.1", r)
	}

	res, doc := a.post(t, "/hubform/acme/clip/submit", true,
		part{name: hubclient.IdempotencyKeyField, value: rendering}, part{name: "video", value: ans.Ticket})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("post: %s\n%s", res.Status, text(doc, "body"))
	}
	subs := a.hub.Submissions()
	want := hubclient.Attachment{Key: ans.Key, Filename: "clip.mp4", Size: int64(len(body)), MIME: "video/mp4", Field: "video"}
	if len(subs) != 1 || len(subs[0].Attachments) != 1 || subs[0].Attachments[0].Key != ans.Key {
		t.Fatalf("stored %+v, want one submission with %s", subs, ans.Key)
	}
	if !bytes.Equal(a.hub.File(ans.Key), body) {
		t.Error("the stored file differs from the one sent in parts")
	}
	if len(a.calls.successes) != 1 || !reflect.DeepEqual(a.calls.successes[0]["video"], []hubclient.Attachment{want}) {
		t.Errorf("OnSuccess got %v, want video %v", a.calls.successes, want)
	}
}

func TestUploadCompleteRefusals(t *testing.T) {
	// The complete route sends the hub only a ticket this app signed for
	// the form, the field and the rendering: anything else is refused
	// before the hub hears of it. What the hub refuses or fails at, the
	// visitor is told in their words, never the hub's.
	a, hubLog := newClipApp(t)
	rendering, route := rendered(t, a, "acme/clip")
	body := make([]byte, 4*clipPart+1)
	rand.Read(body)
	_, ans, _, raw := postJSON(t, a, route, url.Values{"field": {"video"}, "filename": {"clip.mp4"}, "size": {strconv.Itoa(len(body))}, "mime": {"video/mp4"}, "parts": {"1"}, hubclient.IdempotencyKeyField: {rendering}})
	if ans.Parts == nil || ans.Complete == "" {
		t.Fatalf("upload route: %s, want parts", raw)
	}
	etags := putParts(t, ans, body)
	// Another ticket of the same rendering, for the field photo.
	_, photo, _, _ := postJSON(t, a, route, url.Values{"field": {"photo"}, "filename": {"p.jpg"}, "size": {"3"}, "mime": {"image/jpeg"}, hubclient.IdempotencyKeyField: {rendering}})
	otherRendering, _ := rendered(t, a, "acme/clip")
	// forge changes one bit of the ticket's signature; alter changes the
	// key in its attachment and keeps the signature.
	forge := func(ticket string) string {
		dot := strings.LastIndex(ticket, ".")
		sig, err := base64.RawURLEncoding.DecodeString(ticket[dot+1:])
		if err != nil {
			t.Fatal(err)
		}
		sig[len(sig)/2] ^= 1
		return ticket[:dot+1] + base64.RawURLEncoding.EncodeToString(sig)
	}
	alter := func(ticket string) string {
		encoded, sig, _ := strings.Cut(strings.TrimPrefix(ticket, "hubform-upload:"), ".")
		data, err := base64.RawURLEncoding.DecodeString(encoded)
		if err != nil {
			t.Fatal(err)
		}
		var att hubclient.Attachment
		if err := json.Unmarshal(data, &att); err != nil {
			t.Fatal(err)
		}
		att.Key = photo.Key
		data, _ = json.Marshal(att)
		return "hubform-upload:" + base64.RawURLEncoding.EncodeToString(data) + "." + sig
	}
	// respell changes the 2 bits the last of the signature's 43 characters
	// carries beyond its bytes: a lenient decoder reads the same signature.
	respell := func(ticket string) string {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		last := strings.IndexByte(alphabet, ticket[len(ticket)-1])
		return ticket[:len(ticket)-1] + string(alphabet[last^1])
	}
	// post is the complete route's post, as the script sends it, changed
	// by change.
	post := func(change func(v url.Values)) url.Values {
		v := url.Values{"field": {"video"}, "ticket": {ans.Ticket}, hubclient.IdempotencyKeyField: {rendering}, "uploadId": {ans.Parts.UploadID}, "etag": slices.Clone(etags)}
		change(v)
		return v
	}
	renewRoute := strings.Replace(ans.Complete, "/upload-complete", "/upload-parts", 1)
	const unreadable = "The form could not be read. Please try again."
	for _, tt := range []struct {
		name   string
		route  string
		values url.Values
	}{
		{"a forged signature", ans.Complete, post(func(v url.Values) { v.Set("ticket", forge(ans.Ticket)) })},
		{"an altered attachment", ans.Complete, post(func(v url.Values) { v.Set("ticket", alter(ans.Ticket)) })},
		{"another spelling of its signature", ans.Complete, post(func(v url.Values) { v.Set("ticket", respell(ans.Ticket)) })},
		{"a key instead of a ticket", ans.Complete, post(func(v url.Values) { v.Set("ticket", ans.Key) })},
		{"no ticket", ans.Complete, post(func(v url.Values) { v.Del("ticket") })},
		{"a ticket of another field", ans.Complete, post(func(v url.Values) { v.Set("ticket", photo.Ticket) })},
		{"another field", ans.Complete, post(func(v url.Values) { v.Set("field", "photo") })},
		{"another rendering", ans.Complete, post(func(v url.Values) { v.Set(hubclient.IdempotencyKeyField, otherRendering) })},
		{"no rendering", ans.Complete, post(func(v url.Values) { v.Del(hubclient.IdempotencyKeyField) })},
		{"another form", "/hubform/acme/contact/upload-complete", post(func(url.Values) {})},
		{"no etags", ans.Complete, post(func(v url.Values) { v.Del("etag") })},
		{"renew: a forged signature", renewRoute, post(func(v url.Values) { v.Set("ticket", forge(ans.Ticket)) })},
		{"renew: another rendering", renewRoute, post(func(v url.Values) { v.Set(hubclient.IdempotencyKeyField, otherRendering) })},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := hubLog.to("/upload-complete") + hubLog.to("/upload-parts")
			status, got, m, raw := postJSON(t, a, tt.route, tt.values)
			if status != http.StatusBadRequest || got.Error != unreadable || !slices.Equal(members(m), []string{"error"}) {
				t.Errorf("answered %d %s, want 400 %q alone", status, raw, unreadable)
			}
			if n := hubLog.to("/upload-complete") + hubLog.to("/upload-parts") - before; n != 0 {
				t.Errorf("the hub was asked %d times, want never", n)
			}
		})
	}

	// The hub's refusals: its status, the visitor's words.
	refused := "A file was not accepted: check its type and size."
	for _, tt := range []struct {
		name   string
		values url.Values
		status int
	}{
		{"an ETag not the part's", post(func(v url.Values) { v["etag"][1] = `"0123"` }), http.StatusBadRequest},
		{"a part left out", post(func(v url.Values) { v["etag"] = v["etag"][:len(v["etag"])-1] }), http.StatusBadRequest},
		{"another upload id", post(func(v url.Values) { v.Set("uploadId", "other") }), http.StatusNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := hubLog.to("/upload-complete")
			status, got, m, raw := postJSON(t, a, ans.Complete, tt.values)
			if status != tt.status || got.Error != refused || !slices.Equal(members(m), []string{"error"}) {
				t.Errorf("answered %d %s, want %d %q alone", status, raw, tt.status, refused)
			}
			noHubDetails(t, tt.name, raw, a.hub)
			if n := hubLog.to("/upload-complete") - before; n != 1 {
				t.Errorf("the hub was asked %d times to complete, want once", n)
			}
		})
	}

	// The hub failing.
	a.hub.FailNext("/upload-complete", http.StatusServiceUnavailable, "disk full at 10.0.0.7:9000")
	status, got, m, raw := postJSON(t, a, ans.Complete, post(func(url.Values) {}))
	if status != http.StatusBadGateway || got.Error != "A file could not be uploaded. Please try again." || !slices.Equal(members(m), []string{"error"}) {
		t.Errorf("a failing hub: answered %d %s", status, raw)
	}
	noHubDetails(t, "a failing hub", raw, a.hub)
	if strings.Contains(raw, "disk full") {
		t.Errorf("a failing hub: the visitor is told %s", raw)
	}

	// And all is well with the right post: the refusals spoiled nothing.
	if status, _, _, raw := postJSON(t, a, ans.Complete, post(func(url.Values) {})); status != http.StatusOK {
		t.Fatalf("the right post: answered %d %s", status, raw)
	}

	// The hub out of reach.
	a.hub.Server.Close()
	status, got, _, raw = postJSON(t, a, ans.Complete, post(func(url.Values) {}))
	if status != http.StatusBadGateway || got.Error == "" {
		t.Errorf("a hub out of reach: answered %d %s", status, raw)
	}
	noHubDetails(t, "a hub out of reach", raw, a.hub)
}

func TestUploadCompleteBehindEchoCSRF(t *testing.T) {
	// Mounted in a group with Echo's CSRF middleware, the complete route
	// is guarded like the others: without the token the hub never hears
	// of it; with it the route reads the post.
	a, hubLog := newClipApp(t)
	e := echo.New()
	csrf := middleware.CSRFWithConfig(middleware.CSRFConfig{TokenLookup: "form:_csrf"})
	a.h.Register(e.Group(a.h.Prefix(), csrf))
	srv := httptest.NewServer(e)
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(srv.URL + "/hubform/acme/clip")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	token := doc.Find("form input[name=_csrf]").AttrOr("value", "")
	rendering := doc.Find(`input[name="`+hubclient.IdempotencyKeyField+`"]`).AttrOr("value", "")
	if token == "" || rendering == "" {
		t.Fatal("the form carries no CSRF token or no rendering key")
	}
	for _, tt := range []struct {
		name, token string
		status      int
	}{
		{"no token", "", http.StatusBadRequest},
		{"another token", strings.Repeat("x", len(token)), http.StatusForbidden},
		{"the token", token, http.StatusBadRequest},
	} {
		post := url.Values{"field": {"video"}, "ticket": {"hubform-upload:x.y"}, hubclient.IdempotencyKeyField: {rendering}, "uploadId": {"u"}, "etag": {`"e"`}}
		if tt.token != "" {
			post.Set("_csrf", tt.token)
		}
		res, err := client.PostForm(srv.URL+"/hubform/acme/clip/upload-complete", post)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// Only the route itself answers the visitor's words.
		reached := strings.Contains(string(body), "The form could not be read.")
		if res.StatusCode != tt.status || reached != (tt.token == token) {
			t.Errorf("%s: %s %s, want %d, the route reached %v", tt.name, res.Status, body, tt.status, tt.token == token)
		}
	}
	if n := hubLog.to("/upload-complete"); n != 0 {
		t.Errorf("the hub was asked %d times to complete, want never", n)
	}
}

func TestUploadCompleteRouteKeepsEscapes(t *testing.T) {
	// The complete route answered is the form's own, its site and slug
	// escaped as in the upload route's path: an escaped slash stays one.
	var asked []string
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.EscapedPath())
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet:
			io.WriteString(w, `{"fields": [{"name": "video", "type": "file"}], "steps": [{"id": "s", "fields": ["video"]}]}`)
		case strings.HasSuffix(r.URL.Path, "/upload-url"):
			io.WriteString(w, `{"ok": true, "key": "k1", "parts": {"uploadId": "u1", "partSize": 10, "urls": ["http://x.example/1", "http://x.example/2"]}}`)
		default:
			io.WriteString(w, `{"ok": true}`)
		}
	}))
	defer stub.Close()
	a := &app{h: handlers.New(handlers.Config{HubURL: stub.URL + "/v1", Logger: quiet})}
	a.srv = httptest.NewServer(a.h)
	defer a.srv.Close()
	for _, site := range []string{"a%2Fb", "a%20b", "acme"} {
		asked = nil
		base := "/hubform/" + site + "/clip"
		_, ans, _, raw := postJSON(t, a, base+"/upload-url?locale=de", url.Values{"field": {"video"}, "size": {"15"}, "parts": {"1"}, hubclient.IdempotencyKeyField: {"r1"}})
		if want := base + "/upload-complete?locale=de"; ans.Complete != want {
			t.Errorf("site %s: complete %q, want %q (%s)", site, ans.Complete, want, raw)
		}
		status, _, _, raw := postJSON(t, a, ans.Complete, url.Values{"field": {"video"}, "ticket": {ans.Ticket}, hubclient.IdempotencyKeyField: {"r1"}, "uploadId": {"u1"}, "etag": {`"e1"`, `"e2"`}})
		if status != http.StatusOK || !slices.Contains(asked, "POST /v1/"+site+"/clip/upload-complete") {
			t.Errorf("site %s: complete answered %d %s; the hub was asked %q", site, status, raw, asked)
		}
	}
}

// A post without JavaScript that comes back (a field to correct) holds
// its files: they go to the hub's storage and the form shown again names
// them with a box, ticked, that posts them back, so that the visitor does
// not choose them again; unticked, the file is dropped. A file chosen
// again in a field of one file replaces the one held.
func TestFormShownAgainHoldsFiles(t *testing.T) {
	a := newApp(t)
	rendering, _ := rendered(t, a, "acme/contact")
	key := part{name: hubclient.IdempotencyKeyField, value: rendering}
	res, doc := a.post(t, "/hubform/acme/contact/submit", false, key, part{name: "email", value: "ada@example.com"},
		part{name: "files", filename: "cv.txt", value: "my life"}, part{name: "files", filename: "photo.txt", value: "me"})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want the form back for the name", res.StatusCode)
	}
	boxes := doc.Find(`[data-hubform-kept="files"] input[type="checkbox"][name="files"][checked]`)
	if boxes.Length() != 2 || !strings.Contains(text(doc, `[data-hubform-kept="files"]`), "cv.txt, as chosen before") {
		t.Fatalf("held %d files: %q", boxes.Length(), text(doc, `[data-hubform-kept="files"]`))
	}
	if strings.Contains(text(doc, "body"), "choose your files again") {
		t.Error("the form asks for the files again")
	}
	cv := part{name: "files", value: boxes.Eq(0).AttrOr("value", "")}
	res, doc = a.post(t, "/hubform/acme/contact/submit", false, key, part{name: "name", value: "Ada"}, part{name: "email", value: "ada@example.com"}, cv)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("post: %s\n%s", res.Status, text(doc, "body"))
	}
	subs := a.hub.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 || subs[0].Attachments[0].Filename != "cv.txt" {
		t.Fatalf("stored %+v, want the file kept alone", subs)
	}
	if got := string(a.hub.File(subs[0].Attachments[0].Key)); got != "my life" {
		t.Errorf("stored file %q", got)
	}
}

func TestFileChosenAgainReplacesTheOneHeld(t *testing.T) {
	const cvForm = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "cv", "type": "file", "label": "CV"}
  ],
  "steps": [{"id": "s", "fields": ["name", "cv"]}]
}`
	a := &app{hub: hubtest.Start(t, map[string]string{"acme/cv": cvForm}), calls: &calls{}}
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)
	rendering, _ := rendered(t, a, "acme/cv")
	key := part{name: hubclient.IdempotencyKeyField, value: rendering}
	_, doc := a.post(t, "/hubform/acme/cv/submit", false, key, part{name: "cv", filename: "old.txt", value: "old"})
	held := part{name: "cv", value: doc.Find(`[data-hubform-kept="cv"] input[name="cv"]`).AttrOr("value", "")}
	if held.value == "" {
		t.Fatal("the file is not held")
	}
	_, doc = a.post(t, "/hubform/acme/cv/submit", false, key, held, part{name: "cv", filename: "new.txt", value: "new"})
	if got := text(doc, `[data-hubform-kept="cv"] span`); got != "new.txt, as chosen before" {
		t.Errorf("held %q, want the new file alone", got)
	}
	if errs := text(doc, ".hubform-field-error"); strings.Contains(errs, "only one file") {
		t.Errorf("errors %q: the file chosen again did not replace the one held", errs)
	}
}
