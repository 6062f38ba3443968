package templates_test

import (
	"context"

	"github.com/hubform/hubform/components"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/templates"
)

// TestTemplatesParse parses every template as the hub parses a form file,
// schema validation included.
func TestTemplatesParse(t *testing.T) {
	list := templates.List()
	if len(list) < 12 {
		t.Fatalf("%d templates, want 12 or more", len(list))
	}
	for _, tpl := range list {
		t.Run(tpl.Name, func(t *testing.T) {
			if tpl.Title == "" || tpl.Description == "" || tpl.Category == "" || len(tpl.Types) == 0 {
				t.Errorf("incomplete: %+v", tpl)
			}
			data, err := templates.Get(tpl.Name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := formsource.Parse("site", tpl.Name, data); err != nil {
				t.Fatalf("parse: %v", err)
			}
		})
	}
}

func TestGetUnknown(t *testing.T) {
	_, err := templates.Get("nope")
	if err == nil || !strings.Contains(err.Error(), "contact") || !strings.Contains(err.Error(), "rsvp") {
		t.Fatalf("Get(nope) = %v, want an error naming the templates", err)
	}
}

// TestTemplatesRender renders every template as visitors see it and finds
// each question's name in the page.
func TestTemplatesRender(t *testing.T) {
	for _, name := range templates.Names() {
		t.Run(name, func(t *testing.T) {
			data, _ := templates.Get(name)
			form, err := formsource.Parse("site", name, data)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			props := components.HubFormProps{SiteID: "site", FormSlug: name, InitialSchema: form.Schema}
			if err := components.HubForm(props).Render(context.Background(), &b); err != nil {
				t.Fatalf("render: %v", err)
			}
			for _, f := range form.Schema.Fields {
				if !strings.Contains(b.String(), `name="`+f.Name) {
					t.Errorf("the page has no input named %q", f.Name)
				}
			}
		})
	}
}
