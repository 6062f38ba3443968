package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
)

// TestConsoleDownloads submits a file to a hub and downloads it from the
// console: through the hub from local storage, and from a bucket by a
// presigned link the console redirects to.
func TestConsoleDownloads(t *testing.T) {
	for _, tt := range []struct {
		name   string
		bucket bool
	}{{"local", false}, {"bucket", true}} {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			var extra []string
			if tt.bucket {
				extra = []string{"--blob", s3test.URL(t)}
			}
			addUser(t, "jane@example.com", "correct horse battery", "--data", data)
			h := startHub(t, formsDir(t), data, extra...)
			body := []byte("%PDF-1.4 not really")
			c := &hubclient.Client{HubURL: h.url}
			ctx := context.Background()
			up, err := c.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: "cv.pdf", Size: int64(len(body)), MIME: "application/pdf"})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Put(ctx, up.UploadURL, hubclient.NewFile("cv.pdf", "application/pdf", int64(len(body)), func() (io.ReadCloser, error) {
				return io.NopCloser(bytes.NewReader(body)), nil
			})); err != nil {
				t.Fatal(err)
			}
			res, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"},
				Attachments: []hubclient.Attachment{{Key: up.Key, Filename: "cv.pdf", Size: int64(len(body)), MIME: "application/pdf", Field: "files"}}})
			if err != nil {
				t.Fatal(err)
			}

			base := strings.TrimSuffix(h.url, "/v1")
			jar, _ := cookiejar.New(nil)
			client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			get := func(rawURL string) *http.Response {
				t.Helper()
				r, err := client.Get(rawURL)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			page := get(base + "/console/sign-in")
			html, _ := io.ReadAll(page.Body)
			page.Body.Close()
			token := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(html)
			if token == nil {
				t.Fatalf("no CSRF token in %s", html)
			}
			signIn, err := client.PostForm(base+"/console/sign-in", url.Values{"email": {"jane@example.com"}, "password": {"correct horse battery"}, "_csrf": {string(token[1])}})
			if err != nil || signIn.StatusCode != http.StatusSeeOther {
				t.Fatalf("sign-in: %v %v", signIn, err)
			}
			signIn.Body.Close()

			file := get(base + "/console/forms/acme/contact/submissions/" + res.SubmissionID + "/files/0")
			defer file.Body.Close()
			if tt.bucket {
				link := file.Header.Get("Location")
				if file.StatusCode != http.StatusSeeOther || !strings.Contains(link, "X-Amz-Signature=") {
					t.Fatalf("download from a bucket: %d to %q, want 303 to a presigned link", file.StatusCode, link)
				}
				file = get(link)
				defer file.Body.Close()
			}
			got, _ := io.ReadAll(file.Body)
			if file.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
				t.Fatalf("download: %d %q", file.StatusCode, got)
			}
			if d := file.Header.Get("Content-Disposition"); d != `attachment; filename=cv.pdf` {
				t.Errorf("Content-Disposition %q", d)
			}
			if ct := file.Header.Get("Content-Type"); ct != "application/octet-stream" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}
