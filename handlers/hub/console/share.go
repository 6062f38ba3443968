package console

import (
	"cmp"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/hosted"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/hubclient"
)

// sharePath is the tab that tells how to put a form on a page.
func sharePath(site, slug string) string { return formURL(site, slug) + "/share" }

// settingsPath is the tab of a stored form's settings.
func settingsPath(site, slug string) string { return formURL(site, slug) + "/settings" }

// shareProps are what the Share tab shows: each way to put the form on a
// page, filled in with the form's site and slug and the hub's URL.
type shareProps struct {
	Site, Slug, Title string
	// Hub is the hub's public URL, without a trailing slash.
	Hub string
	// Fields are the form's fields, and SubmitText its button's text, for
	// the plain HTML snippet.
	Fields     []hubclient.Field
	SubmitText string
	// Published is whether the hub serves the form; Page whether its
	// settings keep its page on.
	Published, Page bool
	// EmbedOrigins are the sites that alone may frame the page, none for
	// any site.
	EmbedOrigins []string
	// SettingsURL is the form's Settings tab, "" for a form of the forms
	// directory, which the console does not edit.
	SettingsURL string
}

// embedList writes the sites that may frame the page for a sentence.
func (p shareProps) embedList() string { return strings.Join(p.EmbedOrigins, ", ") }

// hostedURL is the form's page on the hub.
func (p shareProps) hostedURL() string { return p.Hub + hosted.Path + "/" + p.Site + "/" + p.Slug }

func (con *Console) share(c echo.Context) error {
	form, err := con.form(c)
	if err != nil {
		return err
	}
	_, err = con.cfg.Inbox.Forms.Lookup(form.Site, form.Slug)
	p := shareProps{Site: form.Site, Slug: form.Slug, Title: inbox.Title(form), Hub: con.publicURL(c),
		SubmitText: "Send", Published: err == nil, Page: form.Settings.Hosted(), EmbedOrigins: form.Settings.EmbedOrigins}
	if con.cfg.Store != nil && !con.inDirectory(form.Site, form.Slug) {
		p.SettingsURL = settingsPath(form.Site, form.Slug)
	}
	if form.Schema != nil {
		p.Fields = form.Schema.Fields
		p.SubmitText = cmp.Or(form.Schema.Buttons.Submit, p.SubmitText)
	}
	return con.render(c, http.StatusOK, sharePage(p))
}

// publicURL is the hub's URL for people: Config.PublicURL, or else the
// scheme and host the request came to.
func (con *Console) publicURL(c echo.Context) string {
	if con.cfg.PublicURL != "" {
		return strings.TrimRight(con.cfg.PublicURL, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

// goEmbed is the Go code that serves the form in an Echo app.
func (p shareProps) goEmbed() string {
	return `forms := handlers.New(handlers.Config{
	HubURL: "` + p.Hub + `/v1",
	Forms: map[handlers.Form]handlers.FormOptions{
		{Site: "` + p.Site + `", Slug: "` + p.Slug + `"}: {
			OnSuccess: func(ctx context.Context, f handlers.Form, values map[string]any) {
				log.Printf("new submission to %s/%s", f.Site, f.Slug)
			},
		},
	},
})
forms.Mount(e) // the load and submit routes, and hubform's static files`
}

// templCall is the form in a templ component.
func (p shareProps) templCall() string {
	return `@components.HubForm(forms.PropsFor(c, "` + p.Site + `", "` + p.Slug + `"))`
}

// genLine is the command that writes the form's Go type.
func (p shareProps) genLine() string {
	return `hubform gen --hub-url ` + p.Hub + `/v1 --site ` + p.Site + ` --form ` + p.Slug + ` --out ` + strings.ReplaceAll(p.Slug, "-", "_") + `.go`
}

// iframe is the hosted page in a frame, for any site.
func (p shareProps) iframe() string {
	return `<iframe src="` + p.hostedURL() + `" title="` + htmlAttr(p.Title) + `" style="width:100%;min-height:40rem;border:0" loading="lazy"></iframe>`
}

// htmlAttr escapes s for a double-quoted attribute of a snippet.
func htmlAttr(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}

// ref is the form as embed.js names it: "site/slug".
func (p shareProps) ref() string { return p.Site + "/" + p.Slug }

// embedScript is the tag that loads embed.js from the hub.
func (p shareProps) embedScript() string {
	return `<script async src="` + p.Hub + hosted.EmbedPath + `"></script>`
}

// embedLink is a link to the form's page, which embed.js replaces, and
// which browsers without JavaScript follow.
func (p shareProps) embedLink(attrs string) string {
	return `<a href="` + p.hostedURL() + `"` + attrs + `>` + htmlText(p.Title) + `</a>`
}

// inlineEmbed is the form inline on a page of any site, in a frame that
// follows its height.
func (p shareProps) inlineEmbed() string {
	return p.embedScript() + `
<!-- Options: data-hubform-prefill passes this page's query to the form's
     prefilled fields; data-hubform-prefill="utm_source,ref" passes those alone. -->
<div data-hubform="` + p.ref() + `">` + p.embedLink("") + `</div>`
}

// popupEmbed is a link that opens the form over the page, in a dialog,
// or in a panel from the side with layout "slide".
func (p shareProps) popupEmbed(layout string) string {
	attrs := ` data-hubform-open="` + p.ref() + `"`
	if layout != "" {
		attrs += ` data-hubform-layout="` + layout + `"`
	}
	return p.embedScript() + `
<!-- Opens on a click. To open it by itself too, add data-hubform-after="5"
     (seconds), data-hubform-scroll="50" (percent of the page read) or
     data-hubform-exit (the mouse leaving the window); data-hubform-once
     then shows it once per visitor. A <button> works as well as a link. -->
` + p.embedLink(attrs)
}

// previewURL is the form's page in frame mode, for the preview.
func (p shareProps) previewURL() string {
	return hosted.Path + "/" + p.Site + "/" + p.Slug + "?embed=1"
}
