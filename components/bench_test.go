package components_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// benchSchema is a 30-field form over 3 steps, with a German overlay that
// translates every field and the built-in texts.
func benchSchema() *hubclient.Schema {
	types := []string{
		hubclient.FieldText, hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldURL, hubclient.FieldNumber,
		hubclient.FieldTextarea, hubclient.FieldSelect, hubclient.FieldRadio, hubclient.FieldCheckbox, hubclient.FieldCheckboxes,
	}
	s := &hubclient.Schema{
		Title:       "Application",
		Description: "Thirty questions over three pages.",
		Buttons:     hubclient.Buttons{Submit: "Apply", Next: "Next", Back: "Back"},
	}
	de := hubclient.Translation{
		Title:   "Bewerbung",
		Fields:  map[string]hubclient.FieldTranslation{},
		Steps:   map[string]hubclient.StepTranslation{},
		Buttons: hubclient.Buttons{Submit: "Bewerben", Next: "Weiter", Back: "Zurück"},
		Texts:   map[string]string{"errorSummary": "Bitte korrigieren Sie:", "choose": "Bitte wählen", "stepStatus": "Schritt {n} von {total}"},
	}
	for i := range 30 {
		name := fmt.Sprintf("q%02d", i)
		f := hubclient.Field{
			Name: name, Type: types[i%len(types)], Label: "Question " + name, Placeholder: "Answer " + name,
			Help: "Help for " + name, Required: i%3 == 0,
		}
		ft := hubclient.FieldTranslation{Label: "Frage " + name, Placeholder: "Antwort " + name, Help: "Hilfe zu " + name}
		switch f.Type {
		case hubclient.FieldSelect, hubclient.FieldRadio, hubclient.FieldCheckboxes:
			f.Options = options("a", "Alpha", "b", "Beta", "c", "Gamma", "d", "Delta")
			ft.Options = map[string]string{"a": "Alfa", "b": "Beta", "c": "Gamma"}
		}
		s.Fields = append(s.Fields, f)
		de.Fields[name] = ft
		if i%10 == 0 {
			id := fmt.Sprintf("page%d", i/10+1)
			s.Steps = append(s.Steps, hubclient.Step{ID: id, Title: "Page " + id})
			de.Steps[id] = hubclient.StepTranslation{Title: "Seite " + id}
		}
		last := &s.Steps[len(s.Steps)-1]
		last.Fields = append(last.Fields, name)
	}
	s.I18n.Translations = map[string]hubclient.Translation{"de": de, "fr": {Title: "Candidature"}}
	return s
}

// BenchmarkHubForm renders a 30-field, 3-step form in a locale, and sets it
// against writing the same HTML as one prebuilt string: x-of-prebuilt is
// how many times longer rendering takes. It also reports the size of the
// HTML, and of the HTML gzip as the page route sends it.
func BenchmarkHubForm(b *testing.B) {
	p := components.HubFormProps{SiteID: "acme", FormSlug: "application", InitialSchema: benchSchema(), Locale: "de-AT"}
	c := components.HubForm(p)
	ctx := context.Background()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		b.Fatal(err)
	}
	prebuilt := buf.String()
	if s := benchSchema(); len(s.Fields) != 30 || len(s.Steps) != 3 {
		b.Fatalf("%d fields over %d steps, want 30 over 3", len(s.Fields), len(s.Steps))
	}
	b.SetBytes(int64(len(prebuilt)))
	b.ReportAllocs()

	b.ResetTimer()
	start := time.Now()
	for range b.N {
		buf.Reset()
		if err := c.Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	renderNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	if buf.String() != prebuilt {
		b.Fatal("rendering is not the same each time")
	}

	// The baseline writes the same bytes into the same kind of buffer, so
	// the ratio is what rendering costs over copying its output. Copying
	// takes nanoseconds: repeat it often enough to measure.
	n := max(b.N, 100_000)
	start = time.Now()
	for range n {
		buf.Reset()
		buf.WriteString(prebuilt)
	}
	prebuiltNs := float64(time.Since(start).Nanoseconds()) / float64(n)
	if buf.String() != prebuilt {
		b.Fatal("the baseline wrote something else")
	}

	// What the page route sends of it, gzip (at Echo's default level).
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(prebuilt))
	zw.Close()
	b.ReportMetric(float64(len(prebuilt)), "html-B")
	b.ReportMetric(float64(z.Len()), "html-gzip-B")
	b.ReportMetric(renderNs, "render-ns/op")
	b.ReportMetric(prebuiltNs, "prebuilt-ns/op")
	b.ReportMetric(renderNs/prebuiltNs, "x-of-prebuilt")
}

// BenchmarkHubFormNewSchema renders the form of BenchmarkHubForm from a new
// schema each time, as the console's preview does: nothing HubForm keeps
// per schema pointer is reused. Building the schema is not timed.
func BenchmarkHubFormNewSchema(b *testing.B) {
	ctx := context.Background()
	var buf bytes.Buffer
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		p := components.HubFormProps{SiteID: "acme", FormSlug: "application", InitialSchema: benchSchema(), Locale: "de-AT"}
		buf.Reset()
		b.StartTimer()
		if err := components.HubForm(p).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
}
