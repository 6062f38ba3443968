package handlers

import (
	"context"
	"io"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/static"
)

// Head renders HubForm's styles and scripts, for a page's head. The styles
// are inline, so that the first paint waits for no request. A small inline
// script loads hubform.js and htmx once the page is loaded and painted,
// from versioned URLs under the handler's prefix that browsers may cache
// for good; htmx is Config.HTMXURL when set, else the copy the module
// embeds.
func (h *Handler) Head() templ.Component {
	htmx := h.cfg.HTMXURL
	if htmx == "" {
		htmx = h.cfg.Prefix + "/static/" + static.URL("htmx.min.js")
	}
	return templ.Join(
		inlineStylesheet(),
		scriptLoader(h.cfg.Prefix+"/static/"+static.URL("hubform.js"), htmx),
	)
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
