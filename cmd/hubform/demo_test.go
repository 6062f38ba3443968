package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// exampleFormFiles returns the example forms as hubtest wants them.
func exampleFormFiles(t testing.TB) map[string]string {
	t.Helper()
	files := map[string]string{}
	fs.WalkDir(exampleForms, "example-forms", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := exampleForm(path, "http://localhost:8080")
			files[strings.TrimSuffix(strings.TrimPrefix(path, "example-forms/"), ".json")] = string(data)
		}
		return err
	})
	return files
}

func TestDemoPages(t *testing.T) {
	t.Parallel()
	hub := hubtest.Start(t, exampleFormFiles(t))
	srv := httptest.NewServer(newDemoApp(demoConfig{hubURL: hub.URL, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), submissions: hub.DB, files: hub.Blobs}))
	defer srv.Close()
	get := func(path string) *goquery.Document {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", path, res.Status, err)
		}
		defer res.Body.Close()
		doc, _ := goquery.NewDocumentFromReader(res.Body)
		return doc
	}
	index := get("/")
	for _, want := range []string{"/f/demo/contact", "/f/demo/survey", "/f/demo/price", "/f/demo/quiz", "/f/demo/unconfigured"} {
		if index.Find(`main a[href="`+want+`"]`).Length() != 1 {
			t.Errorf("index lacks a link to %s", want)
		}
	}
	contact := get("/f/demo/contact")
	if contact.Find("form[data-hubform-form] input[name=_csrf]").Length() != 1 || contact.Find(`head style[data-hubform-styles]`).Length() != 1 {
		t.Error("the contact page lacks the CSRF token or the stylesheet")
	}
	survey := get("/f/demo/survey?locale=fr")
	if got := survey.Find("h2.hubform-title").Text(); got != "Enquête produit" {
		t.Errorf("survey in French has title %q", got)
	}
	if survey.Find(`nav a[href="?locale=de"]`).Length() != 1 || survey.Find(`nav a[aria-current][href="?locale=fr"]`).Length() != 1 {
		t.Error("the survey lacks its locale switcher")
	}
	if alt := survey.Find(`img[src="http://localhost:8080/pictures/rocket.svg"]`).AttrOr("alt", ""); alt != "A rocket among stars" {
		t.Errorf("the survey's rocket sticker shows with alt %q", alt)
	}
	if res, err := http.Get(srv.URL + "/pictures/rocket.svg"); err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("the demo serves its survey's pictures: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	if get("/f/demo/unconfigured").Find("[data-vendor-hubform-unconfigured]").Length() != 1 {
		t.Error("the unconfigured form shows no banner")
	}
}

func TestWriteExampleForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "demo"), 0o755)
	os.WriteFile(filepath.Join(dir, "demo", "contact.json"), []byte("stale"), 0o644)
	if err := writeExampleForms(dir, captchaKeys{}, "http://localhost:8080"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "demo", "contact.json"))
	want, _ := exampleForms.ReadFile("example-forms/demo/contact.json")
	if string(data) != string(want) {
		t.Error("an older form file was not replaced")
	}
	survey, _ := os.ReadFile(filepath.Join(dir, "demo", "survey.json"))
	if !strings.Contains(string(survey), `"image": "http://localhost:8080/pictures/fox.svg"`) || strings.Contains(string(survey), "{demo}") {
		t.Error("the survey's pictures are not on the demo app's address")
	}
}

func TestWriteExampleFormsWiresCaptcha(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keys := captchaKeys{turnstileSiteKey: "ts-key", turnstileSecret: "ts-secret", recaptchaSiteKey: "rc-key"}
	if err := writeExampleForms(dir, keys, "http://localhost:8080"); err != nil {
		t.Fatal(err)
	}
	contact, _ := os.ReadFile(filepath.Join(dir, "demo", "contact.json"))
	survey, _ := os.ReadFile(filepath.Join(dir, "demo", "survey.json"))
	if !strings.Contains(string(contact), `"captchaProvider": "turnstile"`) || !strings.Contains(string(contact), `"captchaSiteKey": "ts-key"`) {
		t.Errorf("contact form without Turnstile:\n%s", contact)
	}
	if strings.Contains(string(survey), "captchaProvider") {
		t.Error("survey asks for reCAPTCHA without a secret")
	}
}

// demoSite serves the demo against a test hub holding the example forms.
func demoSite(t *testing.T) (*httptest.Server, *hubtest.Hub, *http.Client) {
	t.Helper()
	hub := hubtest.Start(t, exampleFormFiles(t))
	srv := httptest.NewServer(newDemoApp(demoConfig{hubURL: hub.URL, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), submissions: hub.DB, files: hub.Blobs}))
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	return srv, hub, &http.Client{Jar: jar}
}

func fetch(t *testing.T, client *http.Client, req *http.Request) (*http.Response, *goquery.Document) {
	t.Helper()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	return res, doc
}

func TestDemoStandaloneAndSubmissions(t *testing.T) {
	t.Parallel()
	srv, hub, client := demoSite(t)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/standalone", nil)
	_, page := fetch(t, client, req)
	token, _ := page.Find("input[name=_csrf]").Attr("value")

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for name, value := range map[string]string{"_csrf": token, "name": "Jane", "email": "jane@example.com", "message": "Hi", "_hp": ""} {
		mw.WriteField(name, value)
	}
	// A browser names the type of the file it sends; Go's CreateFormFile
	// would say application/octet-stream, which the form refuses.
	fw, _ := mw.CreatePart(textproto.MIMEHeader{
		"Content-Disposition": {`form-data; name="files"; filename="notes.txt"`},
		"Content-Type":        {"text/plain"},
	})
	io.WriteString(fw, "standalone file")
	mw.Close()
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/standalone", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, page := fetch(t, client, req)
	subs := hub.Submissions()
	if res.StatusCode != http.StatusOK || len(subs) != 1 || !strings.Contains(page.Find("[data-standalone-result]").Text(), subs[0].ID) {
		t.Fatalf("standalone post: %d, %d stored, page %q", res.StatusCode, len(subs), page.Find("main").Text())
	}

	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/submissions", nil)
	_, list := fetch(t, client, req)
	link, ok := list.Find(`tr[data-submission="` + subs[0].ID + `"] a[download]`).Attr("href")
	if !ok {
		t.Fatal("the submissions page lists no download for the file")
	}
	res, err := client.Get(srv.URL + link)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(got) != "standalone file" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("download: %q, %q", got, res.Header.Get("Content-Disposition"))
	}
	for _, bad := range []string{"/submissions/files/../hub.db", "/submissions/files/etc/passwd", "/submissions/files/uploads/none"} {
		if res, err := client.Get(srv.URL + bad); err != nil || res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %v, want 404", bad, res.Status)
		}
	}
}

func TestDemoStandaloneShowsTheHubsRefusal(t *testing.T) {
	t.Parallel()
	srv, hub, client := demoSite(t)
	hub.FailNext("/submit", http.StatusServiceUnavailable, "closed today")
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/standalone", nil)
	_, page := fetch(t, client, req)
	token, _ := page.Find("input[name=_csrf]").Attr("value")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", token)
	mw.WriteField("name", "Jane")
	mw.WriteField("email", "jane@example.com")
	mw.WriteField("message", "Hi")
	mw.Close()
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/standalone", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, page := fetch(t, client, req)
	if msg := page.Find("[data-standalone-error]").Text(); res.StatusCode != http.StatusBadGateway || !strings.Contains(msg, "could not be sent") || strings.Contains(msg, "closed today") || strings.Contains(msg, "127.0.0.1") {
		t.Errorf("refused standalone post: %d, %q", res.StatusCode, msg)
	}
}

func TestDemoUnreachableHub(t *testing.T) {
	t.Parallel()
	srv, _, client := demoSite(t)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/unreachable", nil)
	_, page := fetch(t, client, req)
	load, ok := page.Find("[data-vendor-hubform-loading]").Attr("data-hx-get")
	if !ok || !strings.HasPrefix(load, "/hubform-unreachable/demo/contact") {
		t.Fatalf("the unreachable page shows no loading state that fetches (data-hx-get %q)", load)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+load, nil)
	req.Header.Set("HX-Request", "true")
	_, fragment := fetch(t, client, req)
	if fragment.Find("[data-hubform] [role=alert]").Length() != 1 || !strings.Contains(fragment.Text(), "could not be loaded") || strings.Contains(fragment.Text(), "127.0.0.1") {
		t.Errorf("the load route gives %q, want the error state", fragment.Text())
	}
}

// TestDemoPagesHaveOneH1 checks that every page of the demo is headed by
// one h1, as screen reader users look for.
func TestDemoPagesHaveOneH1(t *testing.T) {
	t.Parallel()
	srv, _, client := demoSite(t)
	for _, path := range []string{"/", "/f/demo/contact", "/f/demo/survey?locale=de", "/f/demo/unconfigured", "/f/demo/missing", "/unreachable", "/standalone", "/submissions"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		_, page := fetch(t, client, req)
		if h1 := page.Find("h1"); h1.Length() != 1 || strings.TrimSpace(h1.Text()) == "" {
			t.Errorf("%s has %d h1 (%q), want one with text", path, h1.Length(), h1.Text())
		}
	}
}

// TestDemoSubmissionsPages checks that the submissions page shows one page
// at a time, newest first, and that following its Older links reaches the
// oldest submission, each shown once.
func TestDemoSubmissionsPages(t *testing.T) {
	h := hubtest.Start(t, exampleFormFiles(t))
	lister := &countingLister{submissionLister: h.DB}
	srv := httptest.NewServer(newDemoApp(demoConfig{hubURL: h.URL, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), submissions: lister, files: h.Blobs}))
	t.Cleanup(srv.Close)
	client := srv.Client()
	const n = 2*submissionsPageSize + 7
	start := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	var want []string // newest first
	for i := range n {
		at := start.Add(time.Duration(i) * time.Second)
		s := hub.Submission{ID: hub.NewID(at), Site: "demo", Slug: "contact", CreatedAt: at, Payload: json.RawMessage(fmt.Sprintf(`{"n": %d}`, i))}
		if err := h.DB.CreateSubmission(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		want = append([]string{s.ID}, want...)
	}

	var got []string
	path, pages := "/submissions", 0
	for path != "" {
		if pages++; pages > 3 {
			t.Fatalf("more than 3 pages of %d submissions", n)
		}
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		res, page := fetch(t, client, req)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, res.Status)
		}
		rows := page.Find("tr[data-submission]")
		if rows.Length() == 0 || rows.Length() > submissionsPageSize {
			t.Errorf("GET %s: %d submissions, want 1 to %d", path, rows.Length(), submissionsPageSize)
		}
		rows.Each(func(_ int, row *goquery.Selection) { got = append(got, row.AttrOr("data-submission", "")) })
		if read := lister.last.Load(); read > submissionsPageSize+1 {
			t.Errorf("GET %s read %d submissions from the database, want at most a page and one", path, read)
		}
		if newest := page.Find(`nav[aria-label="Pages of submissions"] a[href="/submissions"]`).Length() == 1; newest != (pages > 1) {
			t.Errorf("GET %s: link to the newest page shown %v, want %v", path, newest, pages > 1)
		}
		path = page.Find("a[data-older]").AttrOr("href", "")
	}
	if pages != 3 || !slices.Equal(got, want) {
		t.Errorf("%d pages listed %d submissions, want 3 pages of the %d newest first", pages, len(got), n)
	}

	for _, bad := range []string{"x'--", "%2F..%2F", strings.Repeat("A", 65)} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/submissions?before="+bad, nil)
		if res, page := fetch(t, client, req); res.StatusCode != http.StatusBadRequest || page.Find("main [role=alert]").Length() != 1 {
			t.Errorf("?before=%s: %s, want 400 with a message", bad, res.Status)
		}
	}
}

// countingLister counts the submissions each listing read.
type countingLister struct {
	submissionLister
	last atomic.Int64
}

func (l *countingLister) ListSubmissions(ctx context.Context, f hub.Filter, fn func(hub.Submission) error) error {
	l.last.Store(0)
	return l.submissionLister.ListSubmissions(ctx, f, func(s hub.Submission) error {
		l.last.Add(1)
		return fn(s)
	})
}

// TestDemoDownloadRefusesOddKeys checks that a download of anything but a
// stored file answers 404, whatever the storage makes of the key.
func TestDemoDownloadRefusesOddKeys(t *testing.T) {
	t.Parallel()
	srv, h, client := demoSite(t)
	file := hubclient.NewFile("x.txt", "text/plain", 5, func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("hello")), nil
	})
	submit := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: h.URL, SiteID: "demo", FormSlug: "contact"})
	if _, err := submit.OnSubmit(t.Context(), map[string]any{
		"name": "Jo", "email": "jo@example.com", "message": "A file.", "files": []hubclient.File{file},
	}); err != nil {
		t.Fatal(err)
	}
	key := h.Submissions()[0].Attachments[0].Key // uploads/demo/contact/<random>/x.txt
	dir := path.Dir(key)
	if res, err := client.Get(srv.URL + "/submissions/files/" + key); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET the stored file: %v %v", res.Status, err)
	}
	for _, bad := range []string{
		key + ".attrs", // the storage's sidecar of the file
		key + ".tmp",   // the body while it arrives
		key + ".ATTRS",
		strings.Replace(key, "uploads/", "uploads//", 1),
		key + "%00",
		key + "/",
		dir, // a directory
		dir + "/",
		path.Dir(dir),
		"uploads",
		"uploads/",
		strings.Replace(key, "/x.txt", "/./x.txt", 1),
		strings.Replace(key, "/x.txt", "/%2E%2E/"+path.Base(dir)+"/x.txt", 1),
		key + "%5C",
		"uploads/demo/contact/" + strings.Repeat("a", 2000),
	} {
		res, err := client.Get(srv.URL + "/submissions/files/" + bad)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || strings.Contains(string(body), "uploads") {
			t.Errorf("GET /submissions/files/%.80s: %s %q, want 404 naming no key", bad, res.Status, body)
		}
	}
}

// TestDemoCommandWithItsOwnHub runs "hubform demo" as make run does: with
// a hub of its own, whose contact form takes a post.
func TestDemoCommandWithItsOwnHub(t *testing.T) {
	t.Parallel()
	demo := startDemo(t, "--data", t.TempDir())
	if got := newVisitor(t, demo, "127.0.0.1").post(nil, nil); got != "submitted" {
		t.Errorf("a post of the demo's contact form: %s, want submitted", got)
	}
}

func TestDemoURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080", ":8080": "http://localhost:8080",
		"0.0.0.0:9000": "http://localhost:9000", "[::]:80": "http://localhost:80", "example.org:8080": "http://example.org:8080",
	} {
		if got := demoURL(addr); got != want {
			t.Errorf("demoURL(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestDemoCalculatorAndQuiz sends the demo's price calculator and quiz to
// a hub: it works out the price and the score from the answers, a forged
// total ignored, and the quiz's ending follows the score.
func TestDemoCalculatorAndQuiz(t *testing.T) {
	t.Parallel()
	h := hubtest.Start(t, exampleFormFiles(t))
	c := &hubclient.Client{HubURL: h.URL}
	ctx := context.Background()
	if _, err := c.Submit(ctx, "demo", "price", &hubclient.SubmitRequest{Payload: map[string]any{
		"seat": "supporter", "people": 3, "lunch": true, "name": "Ada", "email": "ada@example.com", "total": 1,
	}}); err != nil {
		t.Fatal(err)
	}
	if got := h.Submissions()[0].Calculations["total"]; got != 276.0 {
		t.Errorf("three supporters with lunch come to %v, want 276", got)
	}
	for _, tc := range []struct {
		answers map[string]any
		score   float64
		ending  string
	}{
		{map[string]any{"q1": "fieldset", "q2": "action", "q3": []string{"labels", "autocomplete"}}, 4, "top"},
		{map[string]any{"q1": "div", "q2": "action", "q3": []string{"labels", "placeholder"}}, 1, "good"},
	} {
		res, err := c.Submit(ctx, "demo", "quiz", &hubclient.SubmitRequest{Payload: tc.answers})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score == nil || *res.Score != tc.score || res.Ending != tc.ending {
			t.Errorf("%v: score %v, ending %q, want %v and %q", tc.answers, res.Score, res.Ending, tc.score, tc.ending)
		}
	}
}
