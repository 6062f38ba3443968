package handlers

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/hubform/hubform/static"
)

// withEmbeddedHTMX makes the build look as if it embedded htmx or not.
func withEmbeddedHTMX(t *testing.T, embedded bool) {
	saved := embeddedHTMX
	embeddedHTMX = func() bool { return embedded }
	t.Cleanup(func() { embeddedHTMX = saved })
}

func TestHeadHTMX(t *testing.T) {
	const host = "https://cdn.example.com/htmx-2.0.11.min.js"
	tests := []struct {
		name     string
		embedded bool
		hostURL  string
		want     string // the htmx script's src; "" for none
		warns    bool
	}{
		{"embedded", true, "", "/forms/static/htmx.min.js?v=", false},
		{"host's own over the embedded copy", true, host, host, false},
		{"host's own, none embedded", false, host, host, false},
		{"none", false, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withEmbeddedHTMX(t, tt.embedded)
			var log bytes.Buffer
			h := New(Config{Prefix: "/forms", HTMXURL: tt.hostURL, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			var html bytes.Buffer
			if err := h.Head().Render(context.Background(), &html); err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(&html)
			if err != nil {
				t.Fatal(err)
			}
			// One inline script, which loads hubform.js and then htmx; a
			// module, so that it holds no parsing back.
			scripts := doc.Find("script")
			if scripts.Length() != 1 || scripts.Filter("script[data-hubform-loader]:not([src])").Length() != 1 {
				t.Fatalf("head %q, want the inline loader alone", html.String())
			}
			if typ := scripts.AttrOr("type", ""); typ != "module" {
				t.Errorf("the loader's type is %q, want module", typ)
			}
			js, htmx := scripts.AttrOr("data-js", ""), scripts.AttrOr("data-htmx", "")
			if !strings.HasPrefix(js, "/forms/static/hubform.js?v=") {
				t.Errorf("the loader adds %q, want hubform.js", js)
			}
			switch {
			case tt.want == "" && htmx != "":
				t.Errorf("the loader adds htmx from %q, want no htmx", htmx)
			case tt.want != "" && !strings.HasPrefix(htmx, tt.want):
				t.Errorf("the loader adds htmx from %q, want %s", htmx, tt.want)
			}
			warnings := strings.Count(log.String(), "level=WARN")
			if tt.warns && (warnings != 1 || !strings.Contains(log.String(), "HTMXURL")) {
				t.Errorf("log %q, want one warning naming Config.HTMXURL", log.String())
			}
			if !tt.warns && warnings != 0 {
				t.Errorf("log %q, want no warning", log.String())
			}
			// Rendering pages logs nothing more.
			h.Head().Render(context.Background(), &html)
			if got := strings.Count(log.String(), "level=WARN"); got != warnings {
				t.Errorf("%d warnings after rendering, %d at start", got, warnings)
			}
		})
	}
}

func TestHeadInlinesStylesAndLoader(t *testing.T) {
	h := New(Config{Logger: slog.New(slog.DiscardHandler)})
	for _, nonce := range []string{"", `n0"nce`} {
		ctx := context.Background()
		if nonce != "" {
			ctx = templ.WithNonce(ctx, nonce)
		}
		var html bytes.Buffer
		if err := h.Head().Render(ctx, &html); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(&html)
		if err != nil {
			t.Fatal(err)
		}
		style := doc.Find("style[data-hubform-styles]")
		if style.Length() != 1 || style.Text() != static.Stylesheet() || !strings.Contains(style.Text(), ".hubform {") {
			t.Fatalf("head %q: want hubform.css inline, once", html.String())
		}
		if got, ok := style.Attr("nonce"); got != nonce || ok != (nonce != "") {
			t.Errorf("nonce %q (%v), want %q", got, ok, nonce)
		}
		if got, ok := doc.Find("script[data-hubform-loader]").Attr("nonce"); got != nonce || ok != (nonce != "") {
			t.Errorf("loader's nonce %q (%v), want %q", got, ok, nonce)
		}
		if n := doc.Find("link[rel=stylesheet]").Length(); n != 0 {
			t.Errorf("%d linked stylesheets beside the inline one", n)
		}
	}
	// Inline, a "<" could end the element early.
	if strings.Contains(static.Stylesheet(), "<") {
		t.Error("hubform.css contains <, which cannot be inlined in <style>")
	}
}
