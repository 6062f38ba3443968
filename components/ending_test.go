package components_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// endingSchema is a one-step form with two endings, the first translated
// into German, its text with emphasis, a link and markup shown as text.
func endingSchema() *hubclient.Schema {
	s := oneStep(hubclient.Meta{}, emailField)
	s.Endings = []hubclient.Ending{
		{ID: "sales", Title: "Our sales team will call", Text: "Within **one working day**. Meanwhile, read [our guide](https://example.com/guide).\n\n<script>alert(1)</script>",
			If: json.RawMessage(`{"!!": {"var": "email"}}`)},
		{ID: "rest", Title: "Thanks"},
	}
	s.I18n.Translations = map[string]hubclient.Translation{"de": {Endings: map[string]hubclient.EndingTranslation{
		"sales": {Title: "Unser Vertrieb ruft an", Text: "Innerhalb *eines Werktags*."},
	}}}
	return s
}

// TestSubmittedEnding: the submitted state shows the ending the hub named,
// translated, in place of the thank-you panel; an ending the schema does
// not have shows the thank-you panel, and a host's SuccessFallback wins.
func TestSubmittedEnding(t *testing.T) {
	ending := func(id, locale string) components.HubFormProps {
		p := props(endingSchema())
		p.Locale = locale
		p.State = components.State{Ending: id}
		return p
	}
	got := render(t, components.Submitted(ending("sales", "")))
	checkGolden(t, "submitted-ending", got)
	doc := parse(t, got)
	if n := doc.Find("[data-hubform]").Length(); n != 1 {
		t.Errorf("%d elements with data-hubform, want 1 root", n)
	}
	panel := doc.Find(`[data-vendor-hubform-submitted][data-hubform-ending="sales"][role="status"]`)
	if panel.Length() != 1 || panel.Find(".hubform-ending-title").Text() != "Our sales team will call" ||
		panel.Find(".hubform-ending-text strong").Text() != "one working day" ||
		panel.Find(`.hubform-ending-text a[href="https://example.com/guide"]`).Length() != 1 {
		t.Errorf("the ending's panel lacks its title, its emphasis or its link:\n%s", got)
	}
	if doc.Find("script").Length() != 0 || !strings.Contains(panel.Text(), "<script>") {
		t.Errorf("markup in the ending's text is not shown as text:\n%s", got)
	}
	if strings.Contains(got, "get back to you") {
		t.Errorf("the ending shows the thank-you text as well:\n%s", got)
	}

	de := parse(t, render(t, components.Submitted(ending("sales", "de-AT"))))
	if title, em := de.Find(".hubform-ending-title").Text(), de.Find(".hubform-ending-text em").Text(); title != "Unser Vertrieb ruft an" || em != "eines Werktags" {
		t.Errorf("German ending: title %q, emphasis %q", title, em)
	}
	if title := parse(t, render(t, components.Submitted(ending("rest", "de")))).Find(".hubform-ending-title").Text(); title != "Thanks" {
		t.Errorf("an untranslated ending's title in German = %q, want the base one", title)
	}

	for _, id := range []string{"", "gone"} {
		html := render(t, components.Submitted(ending(id, "")))
		if !strings.Contains(html, "Thanks, we&#39;ll get back to you soon.") || strings.Contains(html, "data-hubform-ending") {
			t.Errorf("ending %q: want the thank-you panel:\n%s", id, html)
		}
	}

	custom := ending("sales", "")
	custom.SuccessFallback = raw(`<p class="custom-submitted">Got it</p>`)
	if html := render(t, components.Submitted(custom)); !strings.Contains(html, "Got it") || strings.Contains(html, "sales team") {
		t.Errorf("a host's SuccessFallback does not win over the ending:\n%s", html)
	}
}
