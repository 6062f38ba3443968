package console

import (
	"cmp"
	"strings"

	"github.com/hubform/hubform/handlers/hub/hosted"
	"github.com/hubform/hubform/hubclient"
)

// plainForm is an HTML form for a site without Go: it posts natively to
// the routes of the form's page on the hub, which check the values as a Go
// app does and answer with the page's thank-you panel, or with the form
// and its errors. Every field is in the one form, whatever its steps.
func (p shareProps) plainForm() string {
	var b strings.Builder
	w := func(parts ...string) {
		for _, s := range parts {
			b.WriteString(s)
		}
	}
	enctype := ""
	for _, f := range p.Fields {
		if f.Type == hubclient.FieldFile {
			enctype = ` enctype="multipart/form-data"`
		}
	}
	w(`<form method="post" action="`, htmlAttr(p.submitURL()), `"`, enctype, ">\n")
	for _, f := range p.Fields {
		id := htmlAttr(p.Slug + "-" + f.Name)
		name := htmlAttr(f.Name)
		label := htmlText(cmp.Or(f.Label, f.Name))
		req := ""
		if f.Required {
			req = " required"
		}
		switch {
		case hubclient.IsHoneypot(f.Name):
			// Out of sight of people and of assistive technology: bots
			// fill it, and the hub counts what they send as spam.
			w(`  <div aria-hidden="true" style="position:absolute;left:-10000px"><label for="`, id, `">`, label, `</label> <input id="`, id, `" name="`, name, `" type="text" tabindex="-1" autocomplete="off"></div>`, "\n")
			continue
		}
		switch f.Type {
		case hubclient.FieldHidden:
			w(`  <input type="hidden" name="`, name, `">`, "\n")
		case hubclient.FieldCheckbox:
			w(`  <p><label><input type="checkbox" name="`, name, `" value="true"`, req, `> `, label, "</label></p>\n")
		case hubclient.FieldRadio, hubclient.FieldCheckboxes:
			kind := "radio"
			if f.Type == hubclient.FieldCheckboxes {
				kind, req = "checkbox", ""
			}
			w("  <fieldset>\n    <legend>", label, "</legend>\n")
			for _, o := range f.Options {
				w(`    <label><input type="`, kind, `" name="`, name, `" value="`, htmlAttr(o.Value), `"`, req, `> `, htmlText(cmp.Or(o.Label, o.Value)), "</label>\n")
			}
			w("  </fieldset>\n")
		case hubclient.FieldSelect:
			w(`  <p><label for="`, id, `">`, label, "</label>\n", `    <select id="`, id, `" name="`, name, `"`, req, ">\n")
			w(`      <option value=""></option>`, "\n")
			for _, o := range f.Options {
				w(`      <option value="`, htmlAttr(o.Value), `">`, htmlText(cmp.Or(o.Label, o.Value)), "</option>\n")
			}
			w("    </select></p>\n")
		case hubclient.FieldTextarea:
			w(`  <p><label for="`, id, `">`, label, "</label>\n", `    <textarea id="`, id, `" name="`, name, `" rows="5"`, req, "></textarea></p>\n")
		default:
			extra := ""
			if f.Type == hubclient.FieldFile {
				if f.Multiple {
					extra = " multiple"
				}
				if f.Accept != "" {
					extra += ` accept="` + htmlAttr(f.Accept) + `"`
				}
			}
			w(`  <p><label for="`, id, `">`, label, "</label>\n", `    <input id="`, id, `" name="`, name, `" type="`, htmlAttr(f.Type), `"`, extra, req, "></p>\n")
		}
	}
	w(`  <button type="submit">`, htmlText(p.SubmitText), "</button>\n</form>")
	return b.String()
}

// submitURL is where the form's page posts.
func (p shareProps) submitURL() string {
	return p.Hub + hosted.Prefix + "/" + p.Site + "/" + p.Slug + "/submit"
}

// htmlText escapes s for the text of a snippet's element.
func htmlText(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}
