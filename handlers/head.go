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
	return inlineElement("style", "data-hubform-styles", static.Stylesheet())
}

// scriptLoader writes an inline module script that adds hubform.js and
// then htmx (unless the page has htmx already) once the page has loaded and
// painted its first frame. Referenced from the page, even deferred or at the
// end of the body, the scripts held back the form's first input: the page
// showed it about 1.4 times later than without them. A module, the loader
// itself waits for the document to be parsed, so nothing runs before the
// form is in it. Added in this order and not async the scripts run in it, so
// hubform.js listens before htmx starts; the page is complete by then, so
// htmx starts at once. They inherit the loader's CSP nonce. A browser
// without modules loads neither and posts the forms natively.
func scriptLoader(hubformJS, htmx string) templ.Component {
	attrs := `type="module" data-hubform-loader data-js="` + templ.EscapeString(hubformJS) + `"`
	if htmx != "" {
		attrs += ` data-htmx="` + templ.EscapeString(htmx) + `"`
	}
	return inlineElement("script", attrs, loaderJS)
}

// loaderJS is the loader's script; it reads the addresses from its
// element's data-js and data-htmx. A module has no document.currentScript,
// so it finds its element by its attribute.
const loaderJS = `const l=document.querySelector("script[data-hubform-loader]"),{js,htmx}=l.dataset,nonce=l.nonce,` +
	`add=(src)=>document.head.append(Object.assign(document.createElement("script"),{src,nonce,async:false})),` +
	`go=()=>requestAnimationFrame(()=>setTimeout(()=>{add(js);if(htmx&&!window.htmx)add(htmx)}));` +
	`document.readyState==="complete"?go():addEventListener("load",go,{once:true})`

// inlineElement writes <name attrs>text</name>, with the CSP nonce of
// the context (templ.WithNonce) when there is one; attrs are escaped.
func inlineElement(name, attrs, text string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		open := "<" + name + " " + attrs
		if nonce := templ.GetNonce(ctx); nonce != "" {
			open += ` nonce="` + templ.EscapeString(nonce) + `"`
		}
		_, err := io.WriteString(w, open+">"+text+"</"+name+">")
		return err
	})
}
