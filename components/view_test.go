package components

import (
	"encoding/json"
	"net/url"
	"testing"
)

// A form without conditions does not type the posted values for them: the
// view costs the same with values as without.
func TestViewWithoutConditionsIgnoresValues(t *testing.T) {
	s := memoTestSchema()
	pr := prepare(s, "de")
	blank := HubFormProps{SiteID: "acme", FormSlug: "contact", InitialSchema: s}
	posted := blank
	posted.State.Values = url.Values{"name": {"Ada"}, "topic": {"a"}}
	without := testing.AllocsPerRun(20, func() { newFormView(blank, pr) })
	with := testing.AllocsPerRun(20, func() { newFormView(posted, pr) })
	if with != without {
		t.Errorf("the view allocates %.0f times with values, %.0f without: want the same", with, without)
	}

	// With a condition, the values decide.
	s.Fields[1].VisibleIf = json.RawMessage(`{"==": [{"var": "name"}, "Ada"]}`)
	pr = prepare(s, "de")
	if v := newFormView(blank, pr); v.visible("topic") {
		t.Error("topic shown without a name, want it hidden")
	}
	if v := newFormView(posted, pr); !v.visible("topic") {
		t.Error("topic hidden for Ada, want it shown")
	}
}
