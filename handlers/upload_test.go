package handlers_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers"
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
