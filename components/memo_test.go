package components

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/hubform/hubform/hubclient"
)

func newMemo() *memo {
	return &memo{schemas: map[weak.Pointer[hubclient.Schema]]*memoSchema{}}
}

// memoTestSchema returns a two-field form with a German translation.
func memoTestSchema() *hubclient.Schema {
	return &hubclient.Schema{
		Title: "Contact",
		Fields: []hubclient.Field{
			{Name: "name", Type: hubclient.FieldText, Label: "Name"},
			{Name: "topic", Type: hubclient.FieldSelect, Label: "Topic", Options: []hubclient.Option{{Value: "a", Label: "Sales"}}},
		},
		Steps: []hubclient.Step{{ID: "one", Fields: []string{"name", "topic"}}},
		I18n: hubclient.I18n{Translations: map[string]hubclient.Translation{
			"de": {Title: "Kontakt", Fields: map[string]hubclient.FieldTranslation{"name": {Label: "Name (de)"}}},
		}},
	}
}

func TestMemoReuses(t *testing.T) {
	m := newMemo()
	s := memoTestSchema()
	first := m.get(s, "de-AT")
	if again := m.get(s, "de-AT"); again != first || m.built != 1 {
		t.Fatalf("the same schema and locale again: built %d, same entry %v; want 1, true", m.built, again == first)
	}
	if first.l.Schema.Title != "Kontakt" {
		t.Errorf("title %q, want Kontakt", first.l.Schema.Title)
	}
	if p := m.get(s, "fr"); p == first || m.built != 2 || p.l.Schema.Title != "Contact" {
		t.Errorf("another locale: built %d, title %q; want 2, Contact", m.built, p.l.Schema.Title)
	}
	if p := m.get(memoTestSchema(), "de-AT"); p == first || m.built != 3 {
		t.Errorf("another schema alike: built %d, want 3", m.built)
	}
	if m.get(s, "de-AT") != first || m.built != 3 {
		t.Errorf("the first schema again: built %d, want 3", m.built)
	}
}

// HubForm, LogicUpdate and Title share what they keep: whichever comes
// first prepares the schema, the others use it.
func TestRendersShareTheMemo(t *testing.T) {
	built := func() int {
		schemaMemo.mu.Lock()
		defer schemaMemo.mu.Unlock()
		return schemaMemo.built
	}
	users := map[string]func(p HubFormProps){
		"HubForm": func(p HubFormProps) { renderForm(t, p) },
		"LogicUpdate": func(p HubFormProps) {
			if err := LogicUpdate(p, "").Render(context.Background(), &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
		},
		"Title": func(p HubFormProps) {
			if got := Title(p.InitialSchema, p.Locale); got != "Kontakt" {
				t.Errorf("Title = %q, want Kontakt", got)
			}
		},
	}
	for first, use := range users {
		p := HubFormProps{SiteID: "acme", FormSlug: "contact", InitialSchema: memoTestSchema(), Locale: "de"}
		before := built()
		use(p)
		if n := built() - before; n != 1 {
			t.Errorf("%s first: the schema was prepared %d times, want once", first, n)
		}
		for _, use := range users {
			use(p)
		}
		if n := built() - before; n != 1 {
			t.Errorf("%s first, then each: the schema was prepared %d times, want once", first, n)
		}
	}
}

// TestMemoSeesChanges changes a schema in place between renders: each
// change is rendered, none is served stale.
func TestMemoSeesChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*hubclient.Schema)
		want   string // in the form, rendered in "de-AT" after the change
	}{
		{"a field's label", func(s *hubclient.Schema) { s.Fields[1].Label = "Subject" }, ">Subject<"},
		{"an option's label", func(s *hubclient.Schema) { s.Fields[1].Options[0].Label = "Sales team" }, ">Sales team<"},
		{"a field added", func(s *hubclient.Schema) {
			s.Fields = append(s.Fields, hubclient.Field{Name: "email", Type: hubclient.FieldEmail, Label: "Email"})
			s.Steps[0].Fields = append(s.Steps[0].Fields, "email")
		}, ">Email<"},
		{"a member kept in a field's map", func(s *hubclient.Schema) {
			s.Fields[0].Extra = hubclient.Extra{"autocomplete": json.RawMessage(`"nickname"`)}
		}, `autocomplete="nickname"`},
		{"a translation changed in its map", func(s *hubclient.Schema) {
			s.I18n.Translations["de"].Fields["name"] = hubclient.FieldTranslation{Label: "Ihr Name"}
		}, ">Ihr Name<"},
		{"a built-in text translated", func(s *hubclient.Schema) {
			tr := s.I18n.Translations["de"]
			tr.Buttons.Submit = "Senden"
			s.I18n.Translations["de"] = tr
		}, ">Senden<"},
		{"a translation closer to the locale", func(s *hubclient.Schema) {
			s.I18n.Translations["de-AT"] = hubclient.Translation{Title: "Kontakt (AT)"}
		}, ">Kontakt (AT)<"},
		{"a condition", func(s *hubclient.Schema) {
			s.Fields[1].VisibleIf = json.RawMessage(`{"==": [{"var": "name"}, "Ada"]}`)
		}, `data-hubform-slot="topic" hidden`},
		{"the captcha", func(s *hubclient.Schema) {
			s.Meta = hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile, CaptchaSiteKey: "key"}
		}, `data-sitekey="key"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memoTestSchema()
			p := HubFormProps{SiteID: "acme", FormSlug: "contact", InitialSchema: s, Locale: "de-AT"}
			before := renderForm(t, p)
			if strings.Contains(before, tc.want) {
				t.Fatalf("%s already before the change", tc.want)
			}
			tc.change(s)
			if got := renderForm(t, p); !strings.Contains(got, tc.want) {
				t.Errorf("after the change, no %s in\n%s", tc.want, got)
			}
		})
	}
}

func renderForm(t *testing.T, p HubFormProps) string {
	t.Helper()
	var b bytes.Buffer
	if err := HubForm(p).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMemoForgetsCollectedSchemas(t *testing.T) {
	m := newMemo()
	func() {
		s := memoTestSchema()
		m.get(s, "de")
		m.get(s, "fr")
	}()
	entries := func() (int, int) {
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.schemas), m.size
	}
	if n, _ := entries(); n != 1 {
		t.Fatalf("%d schemas held, want 1", n)
	}
	// Cleanups run after a collection, on a goroutine of their own.
	for i := 0; i < 1000; i++ {
		if n, _ := entries(); n == 0 {
			break
		}
		runtime.GC()
		runtime.Gosched()
	}
	if n, size := entries(); n != 0 || size != 0 {
		t.Errorf("after the schema was collected: %d schemas, %d entries held; want none", n, size)
	}
}

func TestMemoIsBounded(t *testing.T) {
	m := newMemo()
	var kept []*hubclient.Schema // all reachable: only the bound drops them
	for range maxPrepared + 10 {
		s := memoTestSchema()
		kept = append(kept, s)
		m.get(s, "de")
	}
	last := kept[len(kept)-1]
	for i := range maxPrepared + 10 {
		m.get(last, fmt.Sprintf("x-%d", i))
	}
	m.mu.Lock()
	size, schemas := m.size, len(m.schemas)
	held := 0
	for _, e := range m.schemas {
		held += len(e.locales)
	}
	m.mu.Unlock()
	if size != held {
		t.Errorf("size %d, but %d entries held", size, held)
	}
	if size > maxPrepared || schemas > maxPrepared {
		t.Errorf("%d entries of %d schemas held, want at most %d", size, schemas, maxPrepared)
	}
	// What was stored last is still there.
	built := m.built
	m.get(last, fmt.Sprintf("x-%d", maxPrepared+9))
	if m.built != built {
		t.Error("the entry stored last was dropped")
	}
	runtime.KeepAlive(kept)
}

// A schema in a package variable is never collected: the memo holds it
// like any other.
var packageSchema = hubclient.Schema{
	Title:  "Package",
	Fields: []hubclient.Field{{Name: "name", Type: hubclient.FieldText, Label: "Name"}},
	Steps:  []hubclient.Step{{ID: "one", Fields: []string{"name"}}},
}

func TestMemoConcurrentRenders(t *testing.T) {
	s := memoTestSchema()
	props := []HubFormProps{
		{SiteID: "acme", FormSlug: "contact", InitialSchema: s, Locale: "de"},
		{SiteID: "acme", FormSlug: "contact", InitialSchema: s, Locale: "fr"},
		{SiteID: "acme", FormSlug: "pkg", InitialSchema: &packageSchema},
	}
	want := make([]string, len(props))
	for i, p := range props {
		want[i] = renderForm(t, p)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(props))
	for range 8 {
		wg.Go(func() {
			for n := range 50 {
				i := n % len(props)
				var b bytes.Buffer
				if err := HubForm(props[i]).Render(context.Background(), &b); err != nil || b.String() != want[i] {
					errs <- fmt.Sprintf("render %d of %s in %q differs (%v)", n, props[i].FormSlug, props[i].Locale, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
