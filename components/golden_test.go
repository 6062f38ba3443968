package components_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// render renders c with a background context and returns its HTML.
func render(t testing.TB, c templ.Component) string {
	t.Helper()
	return renderCtx(t, context.Background(), c)
}

func renderCtx(t testing.TB, ctx context.Context, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(ctx, &b); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return b.String()
}

func parse(t testing.TB, html string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatalf("parsing the rendered HTML: %v", err)
	}
	return doc
}

func renderDoc(t testing.TB, c templ.Component) *goquery.Document {
	t.Helper()
	return parse(t, render(t, c))
}

// raw is a fixed piece of markup, standing for a host's own component.
func raw(html string) templ.Component { return templ.Raw(html) }

// customError is an ErrorFallback that shows the message it receives.
func customError(message string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<p class="custom-error">Sorry: `+templ.EscapeString(message)+`</p>`)
		return err
	})
}

// props returns the props of the form acme/contact with schema s.
func props(s *hubclient.Schema) components.HubFormProps {
	return components.HubFormProps{SiteID: "acme", FormSlug: "contact", InitialSchema: s}
}

// contactSchema is the example of DESIGN.md, from testdata/contact.json.
func contactSchema(t testing.TB) *hubclient.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "contact.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s hubclient.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("decoding contact.json: %v", err)
	}
	return &s
}

func options(pairs ...string) []hubclient.Option {
	var out []hubclient.Option
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, hubclient.Option{Value: pairs[i], Label: pairs[i+1]})
	}
	return out
}

// allFieldsSchema holds one field of every type in hubclient.FieldTypes,
// over three steps, a hidden field outside the steps and a honeypot that
// the schema marks required.
func allFieldsSchema() *hubclient.Schema {
	return &hubclient.Schema{
		Title:       "Every field",
		Description: "One field of each type.",
		Fields: []hubclient.Field{
			{Name: "name", Type: hubclient.FieldText, Label: "Your name", Placeholder: "Jane", Help: "As you would like to be addressed.", Required: true},
			{Name: "email", Type: hubclient.FieldEmail, Label: "Email", Required: true},
			{Name: "phone", Type: hubclient.FieldTel, Label: "Phone", Help: "With the country code."},
			{Name: "website", Type: hubclient.FieldURL, Label: "Website", Placeholder: "https://example.com"},
			{Name: "age", Type: hubclient.FieldNumber, Label: "Age"},
			{Name: "message", Type: hubclient.FieldTextarea, Label: "Message", Help: "A few lines.", Required: true},
			{Name: "topic", Type: hubclient.FieldSelect, Label: "Topic", Required: true, Options: options("sales", "Sales", "support", "Support")},
			{Name: "contact", Type: hubclient.FieldRadio, Label: "Contact me by", Help: "We use only this.", Required: true, Options: options("email", "Email", "phone", "Phone", "post", "")},
			{Name: "terms", Type: hubclient.FieldCheckbox, Label: "I accept the terms", Required: true},
			{Name: "interests", Type: hubclient.FieldCheckboxes, Label: "Interests", Help: "Pick any.", Options: options("news", "News", "events", "Events", "jobs", "Jobs")},
			{Name: "when", Type: hubclient.FieldDate, Label: "Preferred date"},
			{Name: "at", Type: hubclient.FieldTime, Label: "Preferred time", Min: "09:00", Max: "17:00", Step: 15},
			{Name: "meeting", Type: hubclient.FieldDateTime, Label: "Meeting"},
			{Name: "stars", Type: hubclient.FieldRating, Label: "Your rating", Required: true},
			{Name: "ease", Type: hubclient.FieldScale, Label: "How easy was it?", Help: "1 is hard.", MinLabel: "Hard", MaxLabel: "Easy"},
			{Name: "nps", Type: hubclient.FieldNPS, Label: "Would you recommend us?"},
			{Name: "budget", Type: hubclient.FieldSlider, Label: "Budget", Min: "0", Max: "1000", Step: 50},
			{Name: "order", Type: hubclient.FieldRanking, Label: "Rank these", Options: options("price", "Price", "speed", "Speed", "care", "Care")},
			{Name: "grid", Type: hubclient.FieldMatrix, Label: "Rate each", Required: true, Rows: options("speed", "Speed", "care", "Care"), Columns: options("bad", "Bad", "ok", "OK", "good", "Good")},
			{Name: "ship", Type: hubclient.FieldAddress, Label: "Shipping address", Required: true, Countries: []string{"FR", "DE", "BE"}},
			{Name: "sign", Type: hubclient.FieldSignature, Label: "Your signature", Required: true},
			{Name: "team", Type: hubclient.FieldGroup, Label: "Who comes?", AddLabel: "Add a guest", MaxItems: 4, Fields: []hubclient.Field{
				{Name: "guest", Type: hubclient.FieldText, Label: "Name", Required: true},
				{Name: "meal", Type: hubclient.FieldRadio, Label: "Meal", Options: options("veg", "Vegetarian", "fish", "Fish")},
			}},
			{Name: "look", Type: hubclient.FieldRadio, Label: "Which look?", Options: []hubclient.Option{
				{Value: "light", Label: "Light", Image: "https://example.com/light.png"},
				{Value: "dark", Label: "Dark", Image: "https://example.com/dark.png", Alt: "White text on black"},
			}},
			{Name: "more", Type: hubclient.FieldHeading, Text: "A little more"},
			{Name: "note", Type: hubclient.FieldParagraph, Text: "Read **the terms** [here](https://example.com/terms) first:\n\n- one\n- two\n\n<b>raw</b> ![pixel](https://evil.example/p.png) [bad](javascript:alert(1))"},
			{Name: "logo", Type: hubclient.FieldImage, Src: "https://example.com/logo.png", Alt: "Our logo"},
			{Name: "line", Type: hubclient.FieldDivider},
			{Name: "files", Type: hubclient.FieldFile, Label: "Attachments", Help: "PDF or images.", Multiple: true, Accept: "image/*,.pdf"},
			{Name: "source", Type: hubclient.FieldHidden, Label: "Source"},
			{Name: "_hp_company", Type: hubclient.FieldText, Label: "Company", Required: true},
		},
		Steps: []hubclient.Step{
			{ID: "you", Title: "About you", Fields: []string{"name", "email", "phone", "website"}},
			{ID: "details", Title: "Details", Fields: []string{"age", "message", "topic", "contact", "terms", "interests"}},
			{ID: "extra", Title: "Anything else", Fields: []string{"when", "at", "meeting", "stars", "ease", "nps", "budget", "order", "grid", "ship", "sign", "team", "look", "more", "note", "logo", "line", "files", "_hp_company"}},
		},
		Buttons: hubclient.Buttons{Submit: "Send", Next: "Continue", Back: "Previous"},
	}
}

// erroredState is a post of allFieldsSchema that failed: the first error
// is on the second step.
func erroredState() components.State {
	return components.State{
		Values: url.Values{
			"name":      {"Jane"},
			"email":     {"jane@example.com"},
			"age":       {"forty"},
			"message":   {"Hello\nthere"},
			"topic":     {"support"},
			"contact":   {"phone"},
			"terms":     {"true"},
			"interests": {"news", "jobs"},
			"source":    {"newsletter"},
		},
		Errors: map[string]string{
			"age":       "Enter a number.",
			"contact":   "Choose one of the options.",
			"interests": "Choose each option once.",
			"files":     "Choose only one file.",
		},
		SubmitError: "submit failed: 502 Bad Gateway",
		FilesLost:   true,
	}
}

// oneStep is a one-step form of the given fields.
func oneStep(meta hubclient.Meta, fields ...hubclient.Field) *hubclient.Schema {
	s := &hubclient.Schema{Fields: fields, Meta: meta, Steps: []hubclient.Step{{ID: "main"}}}
	for _, f := range fields {
		s.Steps[0].Fields = append(s.Steps[0].Fields, f.Name)
	}
	return s
}

var emailField = hubclient.Field{Name: "email", Type: hubclient.FieldEmail, Label: "Email", Required: true}

type goldenCase struct {
	name string
	c    templ.Component
}

func goldenCases(t testing.TB) []goldenCase {
	t.Helper()
	loading := props(nil)
	loadingCustom := props(nil)
	loadingCustom.LoadingFallback = raw(`<p class="custom-loading">Fetching the form</p>`)
	loadingLocale := props(nil)
	loadingLocale.Locale = "de-AT"

	unconfigured := props(&hubclient.Schema{Title: "Empty", Fields: []hubclient.Field{emailField}})
	unconfiguredCustom := unconfigured
	unconfiguredCustom.UnconfiguredFallback = raw(`<p class="custom-unconfigured">Coming soon</p>`)
	unconfiguredNothing := unconfigured
	unconfiguredNothing.UnconfiguredFallback = components.Nothing

	errCustom := props(nil)
	errCustom.ErrorFallback = customError

	submittedCustom := props(nil)
	submittedCustom.SuccessFallback = raw(`<p class="custom-submitted">Got it</p>`)
	submittedNothing := props(nil)
	submittedNothing.SuccessFallback = components.Nothing

	closed := props(oneStep(hubclient.Meta{Closed: true}, emailField))
	closedCustom := closed
	closedCustom.ClosedFallback = raw(`<p class="custom-closed">See you next year</p>`)
	closedNothing := closed
	closedNothing.ClosedFallback = components.Nothing
	closedLocale := props(nil)
	closedLocale.Locale = "de-AT"

	stamped := props(oneStep(hubclient.Meta{}, emailField))
	stamped.SubmissionKey = "KEY"
	stamped.Stamp = "1700000000000.c2lnbmVk"

	errored := props(allFieldsSchema())
	errored.State = erroredState()

	// An error on a field with help, rules and an autocomplete token: every
	// attribute a control may carry at once, in the order rendered.
	described := props(oneStep(hubclient.Meta{}, hubclient.Field{
		Name: "email", Type: hubclient.FieldEmail, Label: "Email", Help: "We reply to this address.",
		Required: true, MinLength: 6, MaxLength: 80, Pattern: ".+@.+",
	}))
	described.State = components.State{Values: url.Values{"email": {"jane@"}}, Errors: map[string]string{"email": "Enter an email address."}}

	honeypot := props(oneStep(hubclient.Meta{}, emailField, hubclient.Field{Name: "_hp", Type: hubclient.FieldText, Label: "Leave this empty", Required: true}))
	turnstile := props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile, CaptchaSiteKey: "<CAPTCHA_SITE_KEY>"}, emailField))
	recaptcha := props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaRecaptchaV3, CaptchaSiteKey: "<CAPTCHA_SITE_KEY>"}, emailField))

	return append([]goldenCase{
		{"loading", components.HubForm(loading)},
		{"loading-custom", components.HubForm(loadingCustom)},
		{"loading-locale", components.HubForm(loadingLocale)},
		{"ready-contact", components.HubForm(props(contactSchema(t)))},
		{"unconfigured", components.HubForm(unconfigured)},
		{"unconfigured-custom", components.HubForm(unconfiguredCustom)},
		{"unconfigured-nothing", components.HubForm(unconfiguredNothing)},
		{"error", components.LoadError(props(nil), "")},
		{"error-custom", components.LoadError(errCustom, "The form is resting.")},
		{"submitted", components.Submitted(props(nil))},
		{"submitted-custom", components.Submitted(submittedCustom)},
		{"submitted-nothing", components.Submitted(submittedNothing)},
		{"errors", components.HubForm(errored)},
		{"errors-described", components.HubForm(described)},
		{"all-fields", components.HubForm(props(allFieldsSchema()))},
		{"honeypot", components.HubForm(honeypot)},
		{"captcha-turnstile", components.HubForm(turnstile)},
		{"captcha-recaptcha-v3", components.HubForm(recaptcha)},
		{"closed", components.HubForm(closed)},
		{"closed-custom", components.HubForm(closedCustom)},
		{"closed-nothing", components.HubForm(closedNothing)},
		{"closed-locale", components.Closed(closedLocale)},
		{"stamp", components.HubForm(stamped)},
	}, slices.Concat(draftCases(), compositeCases(), themeCases())...)
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.c)
			checkGolden(t, tc.name, got)
			doc := parse(t, got)
			if n := doc.Find("[data-hubform]").Length(); n != 1 {
				t.Errorf("%d elements with data-hubform, want 1 root", n)
			}
			checkIDs(t, doc)
		})
	}
}

// TestAllFieldsCoversEveryType keeps the every-field-type form complete.
func TestAllFieldsCoversEveryType(t *testing.T) {
	have := map[string]bool{}
	for _, f := range allFieldsSchema().Fields {
		have[f.Type] = true
	}
	for _, typ := range hubclient.FieldTypes {
		if !have[typ] {
			t.Errorf("allFieldsSchema has no field of type %q", typ)
		}
	}
}

// checkGolden compares got with testdata/<name>.golden.html byte for byte,
// or rewrites the file when the tests run with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden.html")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("rendered HTML differs from %s (go test -update accepts it):\n%s", path, diffHTML(string(want), got))
	}
}

// diffHTML describes how got differs from want: where the bytes first
// differ, then a diff with one tag per line.
func diffHTML(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at byte %d:\n  want …%s…\n  got  …%s…\n", i, excerpt(want, i), excerpt(got, i))

	a, c := splitTags(want), splitTags(got)
	n, m := len(a), len(c)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == c[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	for i, j := 0, 0; i < n || j < m; {
		switch {
		case i < n && j < m && a[i] == c[j]:
			lines = append(lines, line{' ', a[i]})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			lines = append(lines, line{'+', c[j]})
			j++
		default:
			lines = append(lines, line{'-', a[i]})
			i++
		}
	}
	const context = 3
	show := make([]bool, len(lines))
	for k, l := range lines {
		if l.op == ' ' {
			continue
		}
		for d := max(0, k-context); d <= min(len(lines)-1, k+context); d++ {
			show[d] = true
		}
	}
	b.WriteString("--- want\n+++ got\n")
	gap := false
	for k, l := range lines {
		if !show[k] {
			if !gap {
				b.WriteString("  …\n")
			}
			gap = true
			continue
		}
		gap = false
		fmt.Fprintf(&b, "%c %s\n", l.op, l.text)
	}
	return b.String()
}

func excerpt(s string, i int) string {
	return s[max(0, i-40):min(len(s), i+40)]
}

// splitTags cuts s before every '<'.
func splitTags(s string) []string {
	var out []string
	for s != "" {
		k := strings.IndexByte(s[1:], '<')
		if k < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:k+1])
		s = s[k+1:]
	}
	return out
}

var validID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// checkIDs checks that ids use only [A-Za-z0-9_-], that no two elements
// share one, and that every reference to an id (label for,
// aria-describedby, a fragment link) finds its element.
func checkIDs(t *testing.T, doc *goquery.Document) {
	t.Helper()
	count := map[string]int{}
	doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		id := s.AttrOr("id", "")
		if !validID.MatchString(id) {
			t.Errorf("id %q has characters outside [A-Za-z0-9_-]", id)
		}
		count[id]++
	})
	for id, n := range count {
		if n > 1 {
			t.Errorf("id %q is used %d times, want once", id, n)
		}
	}
	refer := func(attr, id string) {
		if count[id] == 0 {
			t.Errorf("%s refers to id %q, which no element has", attr, id)
		}
	}
	doc.Find("label[for]").Each(func(_ int, s *goquery.Selection) { refer("label for", s.AttrOr("for", "")) })
	doc.Find("[aria-describedby]").Each(func(_ int, s *goquery.Selection) {
		ids := strings.Fields(s.AttrOr("aria-describedby", ""))
		if len(ids) == 0 {
			t.Errorf("empty aria-describedby on <%s>", goquery.NodeName(s))
		}
		for _, id := range ids {
			refer("aria-describedby", id)
		}
	})
	doc.Find(`a[href^="#"]`).Each(func(_ int, s *goquery.Selection) { refer("href", strings.TrimPrefix(s.AttrOr("href", ""), "#")) })
}

// root returns the HubForm's outer element.
func root(t *testing.T, doc *goquery.Document) *goquery.Selection {
	t.Helper()
	r := doc.Find("[data-hubform]")
	if r.Length() != 1 {
		t.Fatalf("%d elements with data-hubform, want 1", r.Length())
	}
	return r
}

// stateMarkers are the elements that tell HubForm's states apart.
var stateMarkers = map[string]string{
	"loading":      "[data-vendor-hubform-loading]",
	"ready":        "form[data-hubform-form]",
	"unconfigured": "[data-vendor-hubform-unconfigured]",
	"error":        `.hubform-banner--error[role="alert"]`,
	"submitted":    "[data-vendor-hubform-submitted]",
}

func TestStateMarkers(t *testing.T) {
	noSteps := props(&hubclient.Schema{Fields: []hubclient.Field{emailField}})
	noFields := props(&hubclient.Schema{Steps: []hubclient.Step{{ID: "main"}}})
	tests := []struct {
		name  string
		c     templ.Component
		state string
		text  string // in the state's element
	}{
		{"loading", components.HubForm(props(nil)), "loading", "Loading"},
		{"ready", components.HubForm(props(contactSchema(t))), "ready", "Your name"},
		{"unconfigured without steps", components.HubForm(noSteps), "unconfigured", "This form is not set up yet."},
		{"unconfigured without fields", components.HubForm(noFields), "unconfigured", "This form is not set up yet."},
		{"error", components.LoadError(props(nil), "hub answered 503"), "error", "hub answered 503"},
		{"submitted", components.Submitted(props(nil)), "submitted", "Thanks, we'll get back to you soon."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := renderDoc(t, tc.c)
			r := root(t, doc)
			for state, selector := range stateMarkers {
				got := r.Find(selector)
				if state != tc.state {
					if got.Length() != 0 {
						t.Errorf("state %s also renders %s", tc.state, selector)
					}
					continue
				}
				if got.Length() != 1 {
					t.Fatalf("%d elements match %s in the root, want 1", got.Length(), selector)
				}
				if text := got.Text(); !strings.Contains(text, tc.text) {
					t.Errorf("%s text = %q, want it to contain %q", selector, text, tc.text)
				}
			}
		})
	}
}

func TestLoadingURL(t *testing.T) {
	tests := []struct {
		name     string
		props    components.HubFormProps
		wantPath string
		wantQry  url.Values
	}{
		{"default route", props(nil), "/hubform/acme/contact", url.Values{}},
		{"locale", components.HubFormProps{SiteID: "acme", FormSlug: "contact", Locale: "de-AT"}, "/hubform/acme/contact", url.Values{"locale": {"de-AT"}}},
		{"own route and locale", components.HubFormProps{SiteID: "acme", FormSlug: "contact", Locale: "pt-BR", Routes: components.Routes{Load: "/forms/acme/contact"}}, "/forms/acme/contact", url.Values{"locale": {"pt-BR"}}},
		{"segments escaped", components.HubFormProps{SiteID: "a/b", FormSlug: "c d?e"}, "/hubform/a%2Fb/c%20d%3Fe", url.Values{}},
		{"own route with a query", components.HubFormProps{SiteID: "acme", FormSlug: "contact", Locale: "de", Routes: components.Routes{Load: "/forms?id=acme"}}, "/forms", url.Values{"id": {"acme"}, "locale": {"de"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := renderDoc(t, components.HubForm(tc.props)).Find("[data-vendor-hubform-loading]")
			get, ok := el.Attr("data-hx-get")
			if !ok {
				t.Fatal("loading state has no data-hx-get")
			}
			u, err := url.Parse(get)
			if err != nil {
				t.Fatalf("data-hx-get %q: %v", get, err)
			}
			if u.EscapedPath() != tc.wantPath {
				t.Errorf("data-hx-get path = %q, want %q", u.EscapedPath(), tc.wantPath)
			}
			if got := u.Query(); fmt.Sprint(got) != fmt.Sprint(tc.wantQry) {
				t.Errorf("data-hx-get query = %v, want %v", got, tc.wantQry)
			}
			if got := el.AttrOr("data-hx-trigger", ""); got != "load" {
				t.Errorf("data-hx-trigger = %q, want load", got)
			}
		})
	}
}

// TestFallbacks checks the rule of PROTOCOL.md §2.1: a nil fallback gives the
// default UI, Nothing gives no output at all inside the root.
func TestFallbacks(t *testing.T) {
	unconfigured := func(c templ.Component) components.HubFormProps {
		p := props(&hubclient.Schema{})
		p.UnconfiguredFallback = c
		return p
	}
	submitted := func(c templ.Component) components.HubFormProps {
		p := props(nil)
		p.SuccessFallback = c
		return p
	}
	loading := props(nil)
	loading.LoadingFallback = raw(`<em class="custom">wait</em>`)
	errProps := props(nil)
	errProps.ErrorFallback = customError

	tests := []struct {
		name      string
		c         templ.Component
		want      string // selector of the content inside the root; "" for none
		wantText  string
		notWanted string // selector that must not appear
	}{
		{"unconfigured nil", components.HubForm(unconfigured(nil)), "[data-vendor-hubform-unconfigured]", "not set up", ""},
		{"unconfigured custom", components.HubForm(unconfigured(raw(`<b class="custom">soon</b>`))), ".custom", "soon", "[data-vendor-hubform-unconfigured]"},
		{"unconfigured Nothing", components.HubForm(unconfigured(components.Nothing)), "", "", ""},
		{"submitted nil", components.Submitted(submitted(nil)), "[data-vendor-hubform-submitted]", "Thanks, we'll get back to you soon.", ""},
		{"submitted custom", components.Submitted(submitted(raw(`<b class="custom">done</b>`))), ".custom", "done", "[data-vendor-hubform-submitted]"},
		{"submitted Nothing", components.Submitted(submitted(components.Nothing)), "", "", ""},
		{"loading custom", components.HubForm(loading), "[data-vendor-hubform-loading] .custom", "wait", ".hubform-skeleton"},
		{"error nil", components.LoadError(props(nil), "boom: 500"), `[role="alert"]`, "boom: 500", ".custom-error"},
		{"error custom", components.LoadError(errProps, "boom: 500"), ".custom-error", "Sorry: boom: 500", `[role="alert"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := root(t, renderDoc(t, tc.c))
			inner, err := r.Html()
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if inner != "" {
					t.Errorf("root holds %q, want nothing", inner)
				}
				return
			}
			got := r.Find(tc.want)
			if got.Length() != 1 {
				t.Fatalf("%d elements match %s, want 1; root holds %s", got.Length(), tc.want, inner)
			}
			if !strings.Contains(got.Text(), tc.wantText) {
				t.Errorf("%s text = %q, want it to contain %q", tc.want, got.Text(), tc.wantText)
			}
			if tc.notWanted != "" && r.Find(tc.notWanted).Length() != 0 {
				t.Errorf("found %s, want it replaced by the fallback", tc.notWanted)
			}
		})
	}
}

func TestCaptcha(t *testing.T) {
	const key = "0x4AAAAAAA-site-key"
	withScript := props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile, CaptchaSiteKey: key}, emailField))
	withScript.Routes.TurnstileScript = "/static/turnstile-test.js"
	tests := []struct {
		name          string
		props         components.HubFormProps
		turnstile     bool
		recaptcha     bool
		wantScriptSrc string
	}{
		{"none", props(oneStep(hubclient.Meta{}, emailField)), false, false, ""},
		{"key without provider", props(oneStep(hubclient.Meta{CaptchaSiteKey: key}, emailField)), false, false, ""},
		{"unknown provider", props(oneStep(hubclient.Meta{CaptchaProvider: "hcaptcha", CaptchaSiteKey: key}, emailField)), false, false, ""},
		{"turnstile", props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile, CaptchaSiteKey: key}, emailField)), true, false, components.TurnstileScript},
		{"turnstile own script", withScript, true, false, "/static/turnstile-test.js"},
		{"recaptcha-v3", props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaRecaptchaV3, CaptchaSiteKey: key}, emailField)), false, true, "https://www.google.com/recaptcha/api.js?render=" + key},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := renderDoc(t, components.HubForm(tc.props))
			form := doc.Find("form")
			token := form.Find(`input[name="_captchaToken"]`)
			mount := doc.Find("[data-vendor-turnstile]")
			scripts := doc.Find("script")
			if tc.turnstile || tc.recaptcha {
				if token.Length() != 1 || token.AttrOr("type", "") != "hidden" {
					t.Errorf("form holds %d _captchaToken inputs of type %q, want 1 hidden", token.Length(), token.AttrOr("type", ""))
				}
			} else if n := doc.Find(`[name="_captchaToken"], [data-hubform-captcha-token]`).Length(); n != 0 {
				t.Errorf("%d captcha token inputs, want none", n)
			}
			if doc.Find(`[name="_captchaToken"]`).Length() != token.Length() {
				t.Error("a _captchaToken input outside the form")
			}

			if !tc.turnstile {
				if mount.Length() != 0 {
					t.Errorf("Turnstile mount rendered without provider turnstile")
				}
			} else {
				if mount.Length() != 1 {
					t.Fatalf("%d Turnstile mounts, want 1", mount.Length())
				}
				if goquery.NodeName(mount) != "div" {
					t.Errorf("Turnstile mount is <%s>, want <div>", goquery.NodeName(mount))
				}
				if got := mount.AttrOr("translate", ""); got != "no" {
					t.Errorf(`mount translate = %q, want "no"`, got)
				}
				if !mount.HasClass("notranslate") {
					t.Errorf("mount class = %q, want notranslate among them", mount.AttrOr("class", ""))
				}
				if got := mount.AttrOr("data-sitekey", ""); got != key {
					t.Errorf("mount data-sitekey = %q, want %q", got, key)
				}
				if mount.Closest("form").Length() != 0 {
					t.Error("Turnstile mount inside the form, want it after the form")
				}
				if prev := mount.PrevAllFiltered("form"); prev.Length() != 1 {
					t.Error("Turnstile mount does not follow the form")
				}
				if got := mount.AttrOr("data-form", ""); got != form.AttrOr("id", "-") {
					t.Errorf("mount data-form = %q, want the form's id %q", got, form.AttrOr("id", ""))
				}
			}

			if got, ok := form.Attr("data-hubform-recaptcha-sitekey"); ok != tc.recaptcha || (ok && got != key) {
				t.Errorf("form data-hubform-recaptcha-sitekey = %q (present %v), want present %v with %q", got, ok, tc.recaptcha, key)
			}

			if tc.wantScriptSrc == "" {
				if scripts.Length() != 0 {
					t.Errorf("%d scripts, want none", scripts.Length())
				}
				if doc.Find("[class*=turnstile], [class*=recaptcha], [data-sitekey]").Length() != 0 {
					t.Error("captcha markup without a provider")
				}
				return
			}
			if scripts.Length() != 1 {
				t.Fatalf("%d scripts, want 1", scripts.Length())
			}
			if got := scripts.AttrOr("src", ""); got != tc.wantScriptSrc {
				t.Errorf("script src = %q, want %q", got, tc.wantScriptSrc)
			}
			if scripts.Closest("[data-hubform]").Length() != 1 {
				t.Error("captcha script outside the root")
			}
		})
	}
}

// TestSchemaSubmitIgnored checks that the form posts to Routes.Submit, never
// to anything the schema's own submit member says.
func TestSchemaSubmitIgnored(t *testing.T) {
	schema := contactSchema(t)
	schema.Submit = json.RawMessage(`{"type":"custom","url":"https://evil.example/collect","action":"javascript:alert(1)","method":"get"}`)
	tests := []struct {
		name   string
		routes components.Routes
		locale string
		want   string
	}{
		{"default route", components.Routes{}, "", "/hubform/acme/contact/submit"},
		{"default route in a locale", components.Routes{}, "de-AT", "/hubform/acme/contact/submit?locale=de-AT"},
		{"own route", components.Routes{Submit: "/app/forms/acme/contact"}, "", "/app/forms/acme/contact"},
		{"own route in a locale", components.Routes{Submit: "/app/forms/acme/contact?locale=de"}, "de", "/app/forms/acme/contact?locale=de"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := props(schema)
			p.Routes = tc.routes
			p.Locale = tc.locale
			html := render(t, components.HubForm(p))
			form := parse(t, html).Find("form")
			for _, attr := range []string{"action", "data-hx-post"} {
				if got := form.AttrOr(attr, ""); got != tc.want {
					t.Errorf("form %s = %q, want %q", attr, got, tc.want)
				}
			}
			if got := form.AttrOr("method", ""); got != "post" {
				t.Errorf("form method = %q, want post", got)
			}
			for _, s := range []string{"evil.example", "javascript:", "ignored", "custom"} {
				if strings.Contains(html, s) {
					t.Errorf("rendered HTML contains %q from the schema's submit member", s)
				}
			}
		})
	}
}

func TestMultipart(t *testing.T) {
	file := hubclient.Field{Name: "cv", Type: hubclient.FieldFile, Label: "CV"}
	tests := []struct {
		name   string
		schema *hubclient.Schema
		want   bool
	}{
		{"no file", oneStep(hubclient.Meta{}, emailField), false},
		{"every type but those of files", func() *hubclient.Schema {
			s := allFieldsSchema()
			s.Fields = slices.DeleteFunc(s.Fields, func(f hubclient.Field) bool { return f.TypeOf().TakesFiles() })
			s.Steps[2].Fields = slices.DeleteFunc(s.Steps[2].Fields, func(name string) bool { return name == "files" || name == "sign" })
			return s
		}(), false},
		// A signature's drawing is a file of the post.
		{"a signature", oneStep(hubclient.Meta{}, hubclient.Field{Name: "sign", Type: hubclient.FieldSignature, Label: "Sign"}), true},
		{"file", oneStep(hubclient.Meta{}, emailField, file), true},
		{"every type", allFieldsSchema(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := renderDoc(t, components.HubForm(props(tc.schema)))
			form := doc.Find("form")
			for _, attr := range []string{"enctype", "data-hx-encoding"} {
				got, ok := form.Attr(attr)
				if ok != tc.want || (ok && got != "multipart/form-data") {
					t.Errorf("form %s = %q (present %v), want present %v with multipart/form-data", attr, got, ok, tc.want)
				}
			}
			if got := doc.Find("progress").Length() == 1; got != tc.want {
				t.Errorf("upload progress rendered %v, want %v", got, tc.want)
			}
		})
	}
}

func TestErrorState(t *testing.T) {
	p := props(allFieldsSchema())
	p.State = erroredState()
	doc := renderDoc(t, components.HubForm(p))

	current := doc.Find("[data-hubform-current]")
	if current.Length() != 1 || current.AttrOr("data-hubform-step", "") != "details" {
		t.Errorf("data-hubform-current on %d steps (%q), want on step details only", current.Length(), current.AttrOr("data-hubform-step", ""))
	}

	var links []string
	doc.Find("[data-hubform-errors] li a").Each(func(_ int, a *goquery.Selection) {
		links = append(links, a.AttrOr("href", "")+" "+a.Text())
	})
	wantLinks := []string{
		"#hubform-acme-contact-age Age: Enter a number.",
		"#hubform-acme-contact-contact Contact me by: Choose one of the options.",
		"#hubform-acme-contact-interests Interests: Choose each option once.",
		"#hubform-acme-contact-files Attachments: Choose only one file.",
	}
	if fmt.Sprint(links) != fmt.Sprint(wantLinks) {
		t.Errorf("error summary links =\n%q\nwant\n%q", links, wantLinks)
	}
	if got := doc.Find("[data-hubform-errors]").AttrOr("role", ""); got != "alert" {
		t.Errorf("error summary role = %q, want alert", got)
	}

	panel := doc.Find("[data-hubform-submit-error]")
	if panel.Length() != 1 || panel.AttrOr("role", "") != "alert" || !strings.Contains(panel.Text(), "submit failed: 502 Bad Gateway") {
		t.Errorf("submit error panel: %d found, role %q, text %q; want one alert with the message", panel.Length(), panel.AttrOr("role", ""), panel.Text())
	}

	values := []struct{ selector, attr, want string }{
		{`input[name="name"]`, "value", "Jane"},
		{`input[name="age"]`, "value", "forty"},
		{`input[name="source"]`, "value", "newsletter"},
		{`select[name="topic"] option[selected]`, "value", "support"},
		{`input[name="contact"][checked]`, "value", "phone"},
		{`input[name="terms"][checked]`, "value", "true"},
	}
	for _, v := range values {
		s := doc.Find(v.selector)
		if s.Length() != 1 || s.AttrOr(v.attr, "") != v.want {
			t.Errorf("%s: %d found, %s %q; want one with %q", v.selector, s.Length(), v.attr, s.AttrOr(v.attr, ""), v.want)
		}
	}
	if got := doc.Find(`textarea[name="message"]`).Text(); got != "Hello\nthere" {
		t.Errorf("textarea holds %q, want %q", got, "Hello\nthere")
	}
	var checked []string
	doc.Find(`input[name="interests"][checked]`).Each(func(_ int, s *goquery.Selection) { checked = append(checked, s.AttrOr("value", "")) })
	if fmt.Sprint(checked) != "[news jobs]" {
		t.Errorf("interests checked %v, want [news jobs]", checked)
	}
	if !strings.Contains(doc.Find(".hubform-field--file").Text(), "Please choose your files again.") {
		t.Error("file field does not ask for the files again")
	}

	// Refused as a whole, with no field at fault, a form of several steps
	// opens again at its last, by its Send button.
	refused := props(allFieldsSchema())
	refused.State = components.State{SubmitError: "The form cannot be sent right now."}
	steps := allFieldsSchema().Steps
	if last := renderDoc(t, components.HubForm(refused)).Find("[data-hubform-current]"); last.Length() != 1 || last.AttrOr("data-hubform-step", "") != steps[len(steps)-1].ID {
		t.Errorf("a refused form opens at step %q, want its last, %q", last.AttrOr("data-hubform-step", ""), steps[len(steps)-1].ID)
	}

	noErrors := renderDoc(t, components.HubForm(props(allFieldsSchema())))
	for _, s := range []string{"[data-hubform-current]", "[data-hubform-submit-error]", "[data-hubform-errors] li", "[aria-invalid]", ".hubform-field-error"} {
		if n := noErrors.Find(s).Length(); n != 0 {
			t.Errorf("form without errors has %d of %s, want none", n, s)
		}
	}
}

// hostile returns a string that breaks out of an attribute or element
// when it is not escaped, tagged so that its place can be told apart.
func hostile(tag string) string {
	return tag + `"'><script>alert(1)</script>&amp;<!--`
}

func TestEscaping(t *testing.T) {
	badName := `x"><script>alert(1)</script>`
	schema := &hubclient.Schema{
		Title:       hostile("title"),
		Description: hostile("description"),
		Fields: []hubclient.Field{
			{Name: "name", Type: hubclient.FieldText, Label: hostile("label"), Placeholder: hostile("placeholder"), Help: hostile("help")},
			{Name: "note", Type: hubclient.FieldTextarea, Label: "Note", Placeholder: hostile("textarea-placeholder")},
			{Name: "choice", Type: hubclient.FieldSelect, Label: "Choice", Placeholder: hostile("select-placeholder"), Options: []hubclient.Option{{Value: hostile("value"), Label: hostile("option")}}},
			{Name: "pick", Type: hubclient.FieldRadio, Label: hostile("legend"), Options: []hubclient.Option{{Value: hostile("radio-value"), Label: hostile("radio-option")}}},
			{Name: "many", Type: hubclient.FieldCheckboxes, Label: "Many", Options: []hubclient.Option{{Value: hostile("checkbox-value")}}},
			{Name: "agree", Type: hubclient.FieldCheckbox, Label: hostile("checkbox-label")},
			{Name: "odd", Type: `text" onfocus="alert(1)`, Label: "Odd"},
			{Name: badName, Type: hubclient.FieldText, Label: "Bad name"},
			{Name: "link", Type: hubclient.FieldURL, Label: "Link", Placeholder: "javascript:alert(1)"},
			{Name: "_hp", Type: hubclient.FieldText, Label: hostile("honeypot")},
		},
		Steps: []hubclient.Step{
			{ID: hostile("step"), Title: hostile("step-title"), Fields: []string{"name", "note", "choice", "pick"}},
			{ID: "two", Title: "Two", Fields: []string{"many", "agree", "odd", badName, "link", "_hp"}},
		},
		Buttons: hubclient.Buttons{Submit: hostile("submit"), Next: hostile("next"), Back: hostile("back")},
		Meta:    hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile, CaptchaSiteKey: hostile("sitekey")},
		I18n: hubclient.I18n{Translations: map[string]hubclient.Translation{
			"de": {Texts: map[string]string{"errorSummary": hostile("summary"), "stepStatus": hostile("status")}},
		}},
		Submit: json.RawMessage(`{"url":"javascript:alert(1)"}`),
	}
	site, slug := `acme"><script>alert(1)</script>`, "javascript:alert(1)"
	p := components.HubFormProps{SiteID: site, FormSlug: slug, InitialSchema: schema, Locale: "de"}
	p.State = components.State{
		Values: url.Values{
			"name":   {hostile("posted")},
			"note":   {"</textarea>" + hostile("posted-note")},
			"choice": {hostile("value")},
			"pick":   {hostile("radio-value")},
			"link":   {"javascript:alert(1)"},
		},
		Errors:      map[string]string{"name": hostile("error"), "pick": hostile("pick-error")},
		SubmitError: hostile("submit-error"),
	}
	recaptcha := props(oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaRecaptchaV3, CaptchaSiteKey: `k"&x=javascript:alert(1)<script>`}, emailField))
	loadErr := components.HubFormProps{SiteID: site, FormSlug: slug}
	customErr := loadErr
	customErr.ErrorFallback = customError

	submitPath := "/hubform/" + url.PathEscape(site) + "/" + url.PathEscape(slug) + "/submit?locale=de"
	tests := []struct {
		name    string
		c       templ.Component
		scripts int // scripts we render ourselves
		checks  []escapeCheck
	}{
		{"form", components.HubForm(p), 1, []escapeCheck{
			{"h2.hubform-title", "", hostile("title")},
			{"p.hubform-description", "", hostile("description")},
			{`.hubform-field--text label`, "", hostile("label")},
			{`input[name="name"]`, "placeholder", hostile("placeholder")},
			{`input[name="name"]`, "value", hostile("posted")},
			{`.hubform-field--text .hubform-help`, "", hostile("help")},
			{`.hubform-field--text .hubform-field-error`, "", hostile("error")},
			{`textarea`, "placeholder", hostile("textarea-placeholder")},
			{`textarea`, "", "</textarea>" + hostile("posted-note")},
			{`select option[value=""]`, "", hostile("select-placeholder")},
			{`select option[selected]`, "value", hostile("value")},
			{`select option[selected]`, "", hostile("option")},
			{`input[type="radio"][checked]`, "value", hostile("radio-value")},
			{`.hubform-field--radio label`, "", hostile("radio-option")},
			{`.hubform-field--radio legend`, "", hostile("legend")},
			{`.hubform-field--radio .hubform-field-error`, "", hostile("pick-error")},
			{`input[type="checkbox"][name="many"]`, "value", hostile("checkbox-value")},
			{`.hubform-field--checkboxes label`, "", hostile("checkbox-value")},
			{`.hubform-field--checkbox label`, "", hostile("checkbox-label")},
			{`input[name="link"]`, "value", "javascript:alert(1)"},
			{`.hubform-hp label`, "", hostile("honeypot")},
			{`fieldset.hubform-step`, "data-hubform-step", hostile("step")},
			{`legend.hubform-step-title`, "", hostile("step-title")},
			{`[data-hubform-back]`, "", hostile("back")},
			{`[data-hubform-next]`, "", hostile("next")},
			{`button[type="submit"]`, "", hostile("submit")},
			{`[data-hubform-submit-error] p:last-child`, "", hostile("submit-error")},
			{`[data-hubform-errors] > p`, "", hostile("summary")},
			{`[data-hubform-step-status]`, "data-hubform-step-template", hostile("status")},
			{`[data-vendor-turnstile]`, "data-sitekey", hostile("sitekey")},
			{`form`, "action", submitPath},
			{`form`, "data-hx-post", submitPath},
		}},
		{"recaptcha key", components.HubForm(recaptcha), 1, []escapeCheck{
			{`form`, "data-hubform-recaptcha-sitekey", `k"&x=javascript:alert(1)<script>`},
			{`script`, "src", "https://www.google.com/recaptcha/api.js?render=" + url.QueryEscape(`k"&x=javascript:alert(1)<script>`)},
		}},
		{"load error", components.LoadError(loadErr, hostile("load-error")), 0, []escapeCheck{
			{`[role="alert"] .hubform-banner-title`, "", hostile("load-error")},
		}},
		{"custom load error", components.LoadError(customErr, hostile("load-error")), 0, []escapeCheck{
			{`.custom-error`, "", "Sorry: " + hostile("load-error")},
		}},
		{"loading", components.HubForm(loadErr), 0, []escapeCheck{
			{`[data-vendor-hubform-loading]`, "data-hx-get", "/hubform/" + url.PathEscape(site) + "/" + url.PathEscape(slug)},
		}},
		{"submitted", components.Submitted(loadErr), 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			html := render(t, tc.c)
			if strings.Contains(strings.ToLower(html), "<script>alert") {
				t.Errorf("unescaped <script>alert in the HTML")
			}
			doc := parse(t, html)
			checkIDs(t, doc)
			if n := doc.Find("script").Length(); n != tc.scripts {
				t.Errorf("%d script elements, want %d", n, tc.scripts)
			}
			doc.Find("script").Each(func(_ int, s *goquery.Selection) {
				if id := s.AttrOr("id", ""); id != "hubform-turnstile-script" && id != "hubform-recaptcha-script" {
					t.Errorf("script %q is not one we render", id)
				}
				if s.Text() != "" {
					t.Errorf("script with inline text %q", s.Text())
				}
			})
			doc.Find("*").Each(func(_ int, s *goquery.Selection) {
				for _, a := range s.Nodes[0].Attr {
					if strings.HasPrefix(strings.ToLower(a.Key), "on") {
						t.Errorf("<%s> has event handler attribute %s=%q", goquery.NodeName(s), a.Key, a.Val)
					}
					switch a.Key {
					case "href", "src", "action", "data-hx-get", "data-hx-post", "formaction":
						if v := strings.ToLower(strings.TrimSpace(a.Val)); strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:") {
							t.Errorf("<%s %s=%q> is a script URL", goquery.NodeName(s), a.Key, a.Val)
						}
					}
				}
			})
			for _, c := range tc.checks {
				c.check(t, doc)
			}
		})
	}
}

// escapeCheck expects the first element of selector to hold want, as its
// text or in attribute attr, exactly as given: what went in escaped came
// back out of the parser unchanged.
type escapeCheck struct{ selector, attr, want string }

func (c escapeCheck) check(t *testing.T, doc *goquery.Document) {
	t.Helper()
	s := doc.Find(c.selector).First()
	if s.Length() == 0 {
		t.Errorf("no element matches %s", c.selector)
		return
	}
	var got string
	if c.attr == "" {
		got = strings.TrimSpace(s.Text())
		got = strings.TrimSuffix(got, "*") // a required mark
	} else {
		got = s.AttrOr(c.attr, "")
	}
	if got != c.want {
		where := "text"
		if c.attr != "" {
			where = c.attr
		}
		t.Errorf("%s %s = %q, want %q", c.selector, where, got, c.want)
	}
}

func TestSubmissionKey(t *testing.T) {
	p := props(allFieldsSchema())
	selector := `form input[type=hidden][name="` + hubclient.IdempotencyKeyField + `"]`
	if n := renderDoc(t, components.HubForm(p)).Find(selector).Length(); n != 0 {
		t.Errorf("without a key the form has %d key inputs", n)
	}
	p.SubmissionKey = hostile("key")
	if got, _ := renderDoc(t, components.HubForm(p)).Find(selector).Attr("value"); got != hostile("key") {
		t.Errorf("the key input holds %q, want %q", got, hostile("key"))
	}
}
