package components_test

import (
	"context"
	"io"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// marker returns a field component that renders an input tagged by, so a
// test can tell which registry rendered a field.
func marker(by string) components.FieldComponent {
	return func(p components.FieldProps) templ.Component {
		return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, `<input id="`+templ.EscapeString(p.ID)+`" name="`+templ.EscapeString(p.Field.Name)+`" data-by="`+by+`">`)
			return err
		})
	}
}

// renderedBy renders the every-field-type form and returns, per field name,
// which registry rendered its control: the data-by of a marker, or
// "default".
func renderedBy(t *testing.T, ctx context.Context, p components.HubFormProps) map[string]string {
	t.Helper()
	doc := parse(t, renderCtx(t, ctx, components.HubForm(p)))
	out := map[string]string{}
	for _, f := range p.InitialSchema.Fields {
		c := controls(doc, f.Name)
		if !f.TypeOf().HasValue() && c.Length() == 0 {
			c = doc.Find("#hubform-acme-contact-" + f.Name) // content has no control
		}
		if c.Length() == 0 {
			t.Errorf("field %q not rendered", f.Name)
			continue
		}
		out[f.Name] = c.First().AttrOr("data-by", "default")
	}
	return out
}

func TestRegistry(t *testing.T) {
	tests := []struct {
		name string
		form components.Registry
		ctx  components.Registry // nil: none in the context
		want map[string]string   // field name → renderer; others "default"
	}{
		{"defaults", nil, nil, nil},
		{"form overrides one type", components.Registry{hubclient.FieldEmail: marker("form")}, nil, map[string]string{"email": "form"}},
		{"context overrides one type", nil, components.Registry{hubclient.FieldTextarea: marker("ctx")}, map[string]string{"message": "ctx"}},
		{"form before context", components.Registry{hubclient.FieldEmail: marker("form")}, components.Registry{hubclient.FieldEmail: marker("ctx"), hubclient.FieldSelect: marker("ctx")},
			map[string]string{"email": "form", "topic": "ctx"}},
		{"nil entries fall through", components.Registry{hubclient.FieldEmail: nil}, components.Registry{hubclient.FieldEmail: marker("ctx"), hubclient.FieldTel: nil},
			map[string]string{"email": "ctx"}},
		{"text override keeps honeypots", components.Registry{hubclient.FieldText: marker("form")}, nil, map[string]string{"name": "form"}},
		{"every type overridden", everyType("form"), everyType("ctx"), map[string]string{
			"name": "form", "email": "form", "phone": "form", "website": "form", "age": "form", "message": "form", "topic": "form",
			"contact": "form", "terms": "form", "interests": "form", "when": "form", "files": "form", "source": "form",
			"at": "form", "meeting": "form", "stars": "form", "ease": "form", "nps": "form", "budget": "form",
			"order": "form", "grid": "form", "ship": "form", "sign": "form", "team": "form", "look": "form", "more": "form", "note": "form", "logo": "form", "line": "form",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.ctx != nil {
				ctx = components.WithRegistry(ctx, tc.ctx)
			}
			p := props(allFieldsSchema())
			p.FormProps.Components = tc.form
			got := renderedBy(t, ctx, p)
			for name, by := range got {
				want := tc.want[name]
				if want == "" {
					want = "default"
				}
				if by != want {
					t.Errorf("field %q rendered by %s, want %s", name, by, want)
				}
			}
		})
	}
}

func everyType(by string) components.Registry {
	r := components.Registry{}
	for _, typ := range hubclient.FieldTypes {
		r[typ] = marker(by)
	}
	return r
}

// TestRegistryProps checks what a field component is given.
func TestRegistryProps(t *testing.T) {
	var got []components.FieldProps
	record := func(p components.FieldProps) templ.Component {
		got = append(got, p)
		return components.Input(p)
	}
	s := i18nSchema(t)
	p := props(s)
	p.Locale = "de"
	p.FormProps.Components = components.Registry{hubclient.FieldText: record}
	p.State = components.State{
		Values: map[string][]string{"name": {"Erika", "Mustermann"}},
		Errors: map[string]string{"name": "Zu kurz."},
	}
	render(t, components.HubForm(p))
	if len(got) != 1 {
		t.Fatalf("text component called %d times, want once", len(got))
	}
	fp := got[0]
	checks := []struct{ what, got, want string }{
		{"Field.Name", fp.Field.Name, "name"},
		{"Field.Label (translated)", fp.Field.Label, "Ihr Name"},
		{"ID", fp.ID, "hubform-acme-contact-name"},
		{"HelpID", fp.HelpID, "hubform-acme-contact-name-help"},
		{"ErrorID", fp.ErrorID, "hubform-acme-contact-name-error"},
		{"Value()", fp.Value(), "Erika"},
		{"Error", fp.Error, "Zu kurz."},
		{"Texts", fp.Texts.T("errorSummary"), "Bitte korrigieren Sie:"},
		{"DescribedBy()", fp.DescribedBy(), "hubform-acme-contact-name-help hubform-acme-contact-name-error"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if len(fp.Values) != 2 || !fp.Has("Mustermann") || fp.Has("Jane") {
		t.Errorf("Values = %q, want both posted values", fp.Values)
	}
}

func TestUnknownFieldType(t *testing.T) {
	for _, typ := range []string{"color", "", "TEXT", "signature-to-come"} {
		s := oneStep(hubclient.Meta{}, hubclient.Field{Name: "fav", Type: typ, Label: "Favourite", Placeholder: "blue", Required: true})
		doc := renderDoc(t, components.HubForm(props(s)))
		in := controls(doc, "fav")
		if in.Length() != 1 || goquery.NodeName(in) != "input" || in.AttrOr("type", "") != "text" {
			t.Errorf("type %q: rendered %d controls <%s type=%q>, want one text input", typ, in.Length(), goquery.NodeName(in), in.AttrOr("type", ""))
			continue
		}
		if in.AttrOr("placeholder", "") != "blue" {
			t.Errorf("type %q: placeholder %q, want blue", typ, in.AttrOr("placeholder", ""))
		}
		if _, ok := in.Attr("required"); !ok {
			t.Errorf("type %q: input not required", typ)
		}
		if label := doc.Find(`label[for="` + in.AttrOr("id", "") + `"]`); label.Length() != 1 {
			t.Errorf("type %q: input has %d labels, want 1", typ, label.Length())
		}
	}
	// A registry may add a type of its own.
	s := oneStep(hubclient.Meta{}, hubclient.Field{Name: "fav", Type: "color", Label: "Favourite"})
	p := props(s)
	p.FormProps.Components = components.Registry{"color": marker("form")}
	doc := renderDoc(t, components.HubForm(p))
	if got := controls(doc, "fav").AttrOr("data-by", ""); got != "form" {
		t.Errorf("registered type color rendered by %q, want form", got)
	}
}

func TestDefaultRegistry(t *testing.T) {
	r := components.DefaultRegistry()
	for _, typ := range hubclient.FieldTypes {
		if r[typ] == nil {
			t.Errorf("DefaultRegistry has no component for %q", typ)
		}
	}
	if len(r) != len(hubclient.FieldTypes) {
		t.Errorf("DefaultRegistry has %d types, want the %d of hubclient.FieldTypes", len(r), len(hubclient.FieldTypes))
	}

	want := render(t, components.HubForm(props(allFieldsSchema())))
	for _, typ := range hubclient.FieldTypes {
		r[typ] = marker("changed")
	}
	delete(r, hubclient.FieldText)
	r["color"] = marker("changed")
	if got := render(t, components.HubForm(props(allFieldsSchema()))); got != want {
		t.Errorf("changing the map DefaultRegistry returned changed the rendering:\n%s", diffHTML(want, got))
	}
	again := components.DefaultRegistry()
	if again[hubclient.FieldText] == nil || again["color"] != nil {
		t.Error("changing the map DefaultRegistry returned changed the next one")
	}
	// Handing the defaults back explicitly renders the same form.
	p := props(allFieldsSchema())
	p.FormProps.Components = components.DefaultRegistry()
	if got := render(t, components.HubForm(p)); got != want {
		t.Errorf("FormProps.Components = DefaultRegistry() renders differently:\n%s", diffHTML(want, got))
	}
}
