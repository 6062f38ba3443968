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

func TestHeadHTMX(t *testing.T) {
	const host = "https://cdn.example.com/htmx-2.0.11.min.js"
	tests := []struct {
		name    string
		hostURL string
		want    string // the start of the htmx script's src
	}{
		{"the module's copy", "", "/forms/static/htmx.min.js?v="},
		{"the host's own", host, host},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := New(Config{Prefix: "/forms", HTMXURL: tt.hostURL, Logger: slog.New(slog.DiscardHandler)})
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
			if !strings.HasPrefix(htmx, tt.want) {
				t.Errorf("the loader adds htmx from %q, want %s", htmx, tt.want)
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
