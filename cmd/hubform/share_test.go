package main

import (
	"bytes"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestSharedHTMLFormPosts sends the Share tab's plain HTML form, filled in
// as a visitor of another site would, to the hub: a value missing comes
// back with its error, a complete one is stored, files too, and answered
// with the thank-you page.
func TestSharedHTMLFormPosts(t *testing.T) {
	data := t.TempDir()
	addUser(t, "jane@example.com", "correct horse battery", "--data", data)
	h := startHub(t, formsDir(t), data)
	base := strings.TrimSuffix(h.url, "/v1")
	c := signIn(t, base, "jane@example.com", "correct horse battery")
	m := regexp.MustCompile(`(?s)<code id="share-html">(.*?)</code>`).FindStringSubmatch(c.get("/console/forms/acme/contact/share"))
	if m == nil {
		t.Fatal("the Share tab has no plain HTML form")
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html.UnescapeString(m[1])))
	if err != nil {
		t.Fatal(err)
	}
	form := doc.Find("form")
	action, _ := form.Attr("action")
	if enctype, _ := form.Attr("enctype"); enctype != "multipart/form-data" {
		t.Errorf("the form with a file field is sent as %q", enctype)
	}
	// post fills the form's controls as a visitor would: typed is the text
	// of each text control by name; the file field gets one file.
	post := func(typed map[string]string) (int, string) {
		t.Helper()
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		form.Find("input[name], textarea[name], select[name]").Each(func(_ int, s *goquery.Selection) {
			name, _ := s.Attr("name")
			if kind, _ := s.Attr("type"); kind == "file" {
				w, _ := mw.CreateFormFile(name, "note.txt")
				io.WriteString(w, "a note")
				return
			}
			mw.WriteField(name, typed[name])
		})
		mw.Close()
		req, _ := http.NewRequest(http.MethodPost, action, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", "https://shop.example.org")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		page, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(page)
	}
	if status, page := post(map[string]string{"message": "Hello"}); status != http.StatusUnprocessableEntity || !strings.Contains(page, `value=""`) || !strings.Contains(page, "Hello") {
		t.Errorf("without the required name: %d %s", status, page)
	}
	status, page := post(map[string]string{"name": "Ann Shared", "message": "Hello"})
	if status != http.StatusOK || !strings.Contains(html.UnescapeString(page), "Thanks, we'll get back to you soon.") {
		t.Fatalf("the complete form: %d %s", status, page)
	}
	if inbox := c.get("/console/forms/acme/contact/submissions"); !strings.Contains(inbox, "Ann Shared") || !strings.Contains(inbox, `download>note.txt</a>`) {
		t.Errorf("the inbox lacks the submission with its file: %s", inbox)
	}
}
