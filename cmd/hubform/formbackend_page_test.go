package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/hubclient"
)

// Forms of TestFormBackendOnTheHubsPage, each with a time trap of one
// second: signupPageForm prefills its fields and sends the visitor to
// REDIRECT, askPageForm takes a message, surveyPageForm closed in 2020.
const (
	signupPageForm = `{"title": "Newsletter sign-up",
  "fields": [
    {"name": "utm_source", "type": "hidden"},
    {"name": "topic", "type": "text", "label": "Topic", "prefill": true},
    {"name": "email", "type": "email", "label": "Your e-mail", "required": true}
  ],
  "steps": [{"id": "main", "fields": ["topic", "email"]}],
  "meta": {"redirectUrl": "REDIRECT"},
  "hub": {"minSeconds": 1}}`
	askPageForm = `{"title": "Ask us",
  "fields": [{"name": "message", "type": "textarea", "label": "Message", "required": true}],
  "steps": [{"id": "main", "fields": ["message"]}],
  "hub": {"minSeconds": 1}}`
	surveyPageForm = `{"title": "Last year's survey",
  "fields": [{"name": "email", "type": "email", "label": "Email"}],
  "steps": [{"id": "main", "fields": ["email"]}],
  "hub": {"closesAt": "2020-01-01T00:00:00Z"}}`
)

// pageMinimum is the time trap's minimum of the forms above, and a tenth
// more.
const pageMinimum = 1100 * time.Millisecond

// TestFormBackendOnTheHubsPage drives the form backend's features through
// the page the hub serves for a form, as a visitor without JavaScript
// does, on one hub process: prefilled fields and the redirect after
// success, the time trap and a message with too many links flagged as
// spam (the visitor told of success all the same), a form past its
// closing time, and a submission's PDF from the admin API.
func TestFormBackendOnTheHubsPage(t *testing.T) {
	t.Parallel()
	welcome := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "Welcome") }))
	t.Cleanup(welcome.Close)
	redirect := welcome.URL + "/welcome"
	forms := formsWith(t, "signup", strings.ReplaceAll(signupPageForm, "REDIRECT", redirect))
	for slug, form := range map[string]string{"ask": askPageForm, "survey": surveyPageForm} {
		if err := os.WriteFile(filepath.Join(forms, "acme", slug+".json"), []byte(form), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := t.TempDir()
	token := createToken(t, "--data", data, "--scope", "submissions:read")
	p := startHub(t, forms, data)
	base := strings.TrimSuffix(p.url, "/v1")
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	// 1. The page prefills the hidden field and the topic from its query;
	// sent after the minimum, the form sends the visitor to the redirect
	// and is stored as it was, not as spam.
	signup := openPage(t, browser, base, "/f/acme/signup?utm_source=newsletter&topic=Pricing")
	ask := openPage(t, browser, base, "/f/acme/ask")
	for name, want := range map[string]string{"utm_source": "newsletter", "topic": "Pricing"} {
		if got := signup.Find(`form input[name="`+name+`"]`).AttrOr("value", ""); got != want {
			t.Errorf("the page's %s reads %q, want %q from the query", name, got, want)
		}
	}
	if kind := signup.Find(`form input[name="utm_source"]`).AttrOr("type", ""); kind != "hidden" {
		t.Errorf("utm_source is an input of type %q, want hidden", kind)
	}
	time.Sleep(pageMinimum)
	wantRedirect := func(res *http.Response, what string) {
		t.Helper()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != redirect {
			t.Fatalf("%s: %d, Location %q, want 303 to %s; hub log:\n%s", what, res.StatusCode, res.Header.Get("Location"), redirect, p.log)
		}
	}
	wantRedirect(postPage(t, browser, base, signup, map[string]string{"email": "jo@example.com"}), "the sign-up after the minimum")
	links := "See http://a.example http://b.example https://c.example www.d.example and https://e.example/cheap"
	if res := postPage(t, browser, base, ask, map[string]string{"message": links}); res.StatusCode != http.StatusOK {
		t.Fatalf("the message with links: %d, want the thank-you page", res.StatusCode)
	}

	adminGet := func(path string) (string, *http.Response) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, p.url+"/admin/forms/acme/"+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		return string(body), res
	}
	// stored returns the one submission of a form, among those marked as
	// spam or the others, as the admin API answers it by its id.
	stored := func(slug string, spam bool) admin.Submission {
		t.Helper()
		query := ""
		if spam {
			query = "?spam=1"
		}
		body, _ := adminGet(slug + "/submissions" + query)
		var list admin.SubmissionList
		if err := json.Unmarshal([]byte(body), &list); err != nil || len(list.Submissions) != 1 {
			t.Fatalf("submissions of acme/%s, spam %v: %v %s, want one", slug, spam, err, body)
		}
		body, _ = adminGet(slug + "/submissions/" + list.Submissions[0].ID)
		var one struct{ Submission admin.Submission }
		if err := json.Unmarshal([]byte(body), &one); err != nil || one.Submission.ID != list.Submissions[0].ID || one.Submission.Spam != spam {
			t.Fatalf("submission %s of acme/%s: %v %s, want spam %v", list.Submissions[0].ID, slug, err, body, spam)
		}
		return one.Submission
	}
	first := stored("signup", false)
	values := map[string]string{}
	for _, v := range first.Values {
		values[v.Name] = v.Value
	}
	if values["utm_source"] != "newsletter" || values["topic"] != "Pricing" || values["email"] != "jo@example.com" || len(first.SpamReasons) != 0 {
		t.Errorf("stored %v, reasons %q; want the page's prefilled values and no reasons", values, first.SpamReasons)
	}

	// 2. Sent as soon as the page is shown, the form is taken as a bot's:
	// the visitor is sent on all the same, and the submission is spam.
	wantRedirect(postPage(t, browser, base, openPage(t, browser, base, "/f/acme/signup"), map[string]string{"email": "bot@example.org"}), "the sign-up sent at once")
	if bot := stored("signup", true); !slices.ContainsFunc(bot.SpamReasons, func(r string) bool { return strings.Contains(r, "after the form was shown") }) {
		t.Errorf("the sign-up sent at once has reasons %q, want the seconds after the form was shown", bot.SpamReasons)
	}

	// 3. A message with five links is spam.
	if spam := stored("ask", true); !slices.ContainsFunc(spam.SpamReasons, func(r string) bool { return strings.Contains(r, "5 links") }) {
		t.Errorf("the message with five links has reasons %q", spam.SpamReasons)
	}

	// 4. A form past its closing time shows that it is closed, and
	// refuses a submission.
	closed := openPage(t, browser, base, "/f/acme/survey")
	if closed.Find("[data-vendor-hubform-closed]").Length() != 1 || closed.Find("form").Length() != 0 {
		main, _ := closed.Find("main").Html()
		t.Errorf("the page of a closed form lacks its closed state, or shows a form:\n%.1500s", main)
	}
	c := &hubclient.Client{HubURL: p.url}
	if schema, err := c.Schema(context.Background(), "acme", "survey"); err != nil || !schema.Meta.Closed {
		t.Errorf("the schema of a closed form: closed %v, %v", schema != nil && schema.Meta.Closed, err)
	}
	_, err := c.Submit(context.Background(), "acme", "survey", &hubclient.SubmitRequest{Payload: map[string]any{"email": "jo@example.com"}})
	if !errors.Is(err, hubclient.ErrFormClosed) {
		t.Errorf("a submission to a closed form: %v, want it closed", err)
	}

	// 5. The first submission as a PDF.
	doc, res := adminGet("signup/submissions/" + first.ID + "/pdf")
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("the PDF is sent as %q", ct)
	}
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = strings.NewReader(doc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext (apt-get install poppler-utils): %v", err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Newsletter sign-up", "Topic", "Pricing", "Your e-mail", "jo@example.com"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q: %s", want, text)
		}
	}
}

// openPage loads a form's page at path and returns it, or fails the test.
func openPage(t *testing.T, browser *http.Client, base, path string) *goquery.Document {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	res, doc := fetch(t, browser, req)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	return doc
}

// postPage sends the form of page as a browser without JavaScript does:
// to its action, with the value of each of its controls, hidden ones
// included, and typed in place of the controls it names. It returns the
// answer, not followed if a redirect.
func postPage(t *testing.T, browser *http.Client, base string, page *goquery.Document, typed map[string]string) *http.Response {
	t.Helper()
	form := page.Find("form[data-hubform-form]")
	if form.Length() != 1 {
		t.Fatal("the page holds no form")
	}
	values := url.Values{}
	form.Find("input[name], textarea[name], select[name]").Each(func(_ int, s *goquery.Selection) {
		name := s.AttrOr("name", "")
		switch kind := s.AttrOr("type", ""); {
		case kind == "file", (kind == "checkbox" || kind == "radio") && s.AttrOr("checked", "-") == "-":
			return
		case goquery.NodeName(s) == "textarea":
			values.Add(name, s.Text())
		case goquery.NodeName(s) == "select":
			values.Add(name, s.Find("option[selected]").AttrOr("value", ""))
		default:
			values.Add(name, s.AttrOr("value", ""))
		}
	})
	for name, v := range typed {
		if !values.Has(name) {
			t.Fatalf("the form has no control %s: %v", name, values)
		}
		values.Set(name, v)
	}
	var body bytes.Buffer
	contentType := "application/x-www-form-urlencoded"
	if form.AttrOr("enctype", "") == "multipart/form-data" {
		mw := multipart.NewWriter(&body)
		for name, vs := range values {
			for _, v := range vs {
				mw.WriteField(name, v)
			}
		}
		mw.Close()
		contentType = mw.FormDataContentType()
	} else {
		body.WriteString(values.Encode())
	}
	action, err := url.Parse(form.AttrOr("action", ""))
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(base)
	req, _ := http.NewRequest(strings.ToUpper(form.AttrOr("method", "get")), target.ResolveReference(action).String(), &body)
	req.Header.Set("Content-Type", contentType)
	res, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}
