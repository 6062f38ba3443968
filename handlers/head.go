package handlers

import (
	"context"
	"io"
	"log/slog"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/static"
)

// htmxSrc returns the address of the htmx script for a page's head: the
// host's own when it set one, else the copy embedded in the build, served
// under prefix, else "" when there is none, and the forms post without
// JavaScript.
func htmxSrc(prefix, hostURL string) string {
	if hostURL != "" {
		return hostURL
	}
	if !embeddedHTMX() {
		return ""
	}
	return prefix + "/static/" + static.URL("htmx.min.js")
}

// embeddedHTMX reports whether the build carries htmx; a variable so that
// tests can see a build without it.
var embeddedHTMX = static.HasHTMX

// warnWithoutHTMX logs, once for a handler, that its pages will have no
// htmx: a module fetched with `go get` embeds none, and nothing else would
// say that the forms post natively, reloading the page.
func warnWithoutHTMX(logger *slog.Logger, hostURL string) {
	if hostURL != "" || embeddedHTMX() {
		return
	}
	logger.Warn("hubform: no htmx in this build and Config.HTMXURL is empty; " +
		"pages load no htmx and forms post without it, reloading the page. " +
		"Set Config.HTMXURL to your copy of htmx 2, or build with make assets")
}

// inlineStylesheet writes hubform.css in a <style> element, with the CSP
// nonce of the context (templ.WithNonce) when there is one. Inline, the
// styles cost the first paint no request; the page carries them each time,
// about 2.5 KB once the page is compressed.
func inlineStylesheet() templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		open := "<style data-hubform-styles>"
		if nonce := templ.GetNonce(ctx); nonce != "" {
			open = `<style data-hubform-styles nonce="` + templ.EscapeString(nonce) + `">`
		}
		_, err := io.WriteString(w, open+static.Stylesheet()+"</style>")
		return err
	})
}
