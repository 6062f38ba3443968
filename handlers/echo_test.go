package handlers_test

import (
	"context"
	"crypto/sha256"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
)

// TestBehindEchoCSRF mounts the routes on an Echo app protected by Echo's
// CSRF middleware: a page's form carries the token and posts; a post
// without it is refused.
func TestBehindEchoCSRF(t *testing.T) {
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	h := handlers.New(handlers.Config{HubURL: hub.URL, Logger: quiet})
	e := echo.New()
	csrf := middleware.CSRFWithConfig(middleware.CSRFConfig{TokenLookup: "form:_csrf"})
	h.Register(e.Group(h.Prefix(), csrf)) // the form's routes alone, in a group
	e.GET("/contact", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "text/html")
		return components.HubForm(h.PropsFor(c, "acme", "contact")).Render(c.Request().Context(), c.Response())
	}, csrf)
	srv := httptest.NewServer(e)
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}

	res, err := client.Get(srv.URL + "/contact")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	token, ok := doc.Find("form input[name=_csrf]").Attr("value")
	if !ok || token == "" {
		t.Fatal("the form carries no CSRF token")
	}
	action, _ := doc.Find("form").Attr("action")
	res, err = client.PostForm(srv.URL+action, url.Values{"_csrf": {token}, "name": {"Jane"}, "email": {"jane@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || len(hub.Submissions()) != 1 {
		t.Errorf("post with the token: %s, %d stored", res.Status, len(hub.Submissions()))
	}
	res, err = client.PostForm(srv.URL+action, url.Values{"name": {"Jane"}, "email": {"jane@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode < 400 || len(hub.Submissions()) != 1 {
		t.Errorf("post without the token: %s, %d stored", res.Status, len(hub.Submissions()))
	}
}

// TestLargeUploadIsStreamed posts a 64 MiB file: the handler spools it to
// disk and streams it to the hub; the process allocates a fraction of it.
func TestLargeUploadIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("posts 64 MiB")
	}
	const size = 64 << 20
	a := newApp(t)
	body, w := io.Pipe()
	mw := multipart.NewWriter(w)
	want := sha256.New()
	go func() {
		mw.WriteField("name", "Jane")
		mw.WriteField("email", "jane@example.com")
		fw, _ := mw.CreateFormFile("files", "big.bin")
		chunk := []byte(strings.Repeat("0123456789abcdef", 4096))
		for written := 0; written < size; written += len(chunk) {
			fw.Write(chunk)
			want.Write(chunk)
		}
		mw.Close()
		w.Close()
	}()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, a.srv.URL+"/hubform/acme/contact/submit", body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("HX-Request", "true")
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	runtime.ReadMemStats(&after)
	subs := a.hub.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 {
		t.Fatalf("status %d, submissions %+v", res.StatusCode, subs)
	}
	if got := sha256.Sum256(a.hub.File(subs[0].Attachments[0].Key)); got != [32]byte(want.Sum(nil)) {
		t.Error("the stored file differs from the posted one")
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB for a %d MiB post", grew>>10, size>>20)
	if grew > 24<<20 {
		t.Errorf("allocated %d MiB for a %d MiB post: the file was held in memory", grew>>20, size>>20)
	}
}
