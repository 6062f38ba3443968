package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// conditionsBase is a form with a choice and a checkbox for conditions to
// read, a field to set them on, one with a condition written by hand, and
// a field after them.
const conditionsBase = `{"title":"Order","x-note":"keep me","fields":[
{"name":"size","type":"select","label":"Size","options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}]},
{"name":"gift","type":"checkbox","label":"A gift"},
{"name":"note","type":"text","label":"Gift note"},
{"name":"wrap","type":"text","label":"Wrapping","visibleIf":{"if":[{"var":"gift"},{"!=":[{"var":"note"},""]},false]}},
{"name":"last","type":"text","label":"Last"}],
"steps":[{"id":"a","fields":["size","gift","note","wrap","last"]}]}`

// newConditionsForm is newBuilderForm with conditionsBase saved.
func newConditionsForm(t *testing.T) *builderForm {
	f := newBuilderForm(t)
	n, _, _ := f.last()
	if res := f.post("/forms/acme/contact", url.Values{"body": {conditionsBase}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	return f
}

// fieldForm is the post of field note's panel as the builder shows it,
// with the rows given.
func fieldForm(name string, rows url.Values) url.Values {
	form := url.Values{"name": {name}, "label": {"Gift note"}, "step": {"a"}}
	for k, v := range rows {
		form[k] = v
	}
	return form
}

// TestConditionsWritten: rows posted with the field are written as the
// JSONLogic the hub enforces and the components evaluate.
func TestConditionsWritten(t *testing.T) {
	f := newConditionsForm(t)
	s := f.act("/fields/2", fieldForm("note", url.Values{
		"visibleIf": {"rows"}, "visibleIf.join": {"all"},
		"visibleIf.0.field": {"gift"}, "visibleIf.0.op": {"checked"}, "visibleIf.0.value": {""},
		"requiredIf": {"rows"}, "requiredIf.join": {"any"},
		"requiredIf.0.field": {"size"}, "requiredIf.0.op": {"is"}, "requiredIf.0.value": {"l"},
		"requiredIf.1.field": {"gift"}, "requiredIf.1.op": {"unchecked"}, "requiredIf.1.value": {""},
	}))
	note := s.Field("note")
	if got, want := compact(t, note.VisibleIf), `{"!!":[{"var":"gift"}]}`; got != want {
		t.Errorf("visibleIf %s, want %s", got, want)
	}
	if got, want := compact(t, note.RequiredIf), `{"or":[{"==":[{"var":"size"},"l"]},{"!":[{"var":"gift"}]}]}`; got != want {
		t.Errorf("requiredIf %s, want %s", got, want)
	}
	if got := compact(t, s.Field("wrap").VisibleIf); got != `{"if":[{"var":"gift"},{"!=":[{"var":"note"},""]},false]}` {
		t.Errorf("another field's condition changed: %s", got)
	}

	// The components hide the field until the box is checked.
	for _, tc := range []struct {
		values url.Values
		hidden bool
	}{{url.Values{}, true}, {url.Values{"gift": {"true"}}, false}} {
		var b bytes.Buffer
		p := components.HubFormProps{SiteID: "acme", FormSlug: "contact", InitialSchema: &s, State: components.State{Values: tc.values}}
		if err := components.HubForm(p).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		doc, _ := goquery.NewDocumentFromReader(&b)
		_, hidden := doc.Find(`[data-hubform-slot="note"]`).Attr("hidden")
		if hidden != tc.hidden {
			t.Errorf("values %v: the field is hidden %v, want %v", tc.values, hidden, tc.hidden)
		}
	}

	// The hub refuses a large size without the note, and takes a small one:
	// the note is shown with the gift, and required with a large size.
	_, _, members := f.last()
	file, _ := json.Marshal(members)
	h := hubtest.Start(t, map[string]string{"acme/order": string(file)})
	client := &hubclient.Client{HubURL: h.URL}
	_, err := client.Submit(t.Context(), "acme", "order", &hubclient.SubmitRequest{Payload: map[string]any{"size": "l", "gift": true}})
	var he *hubclient.HubError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnprocessableEntity || he.Fields["note"] == "" {
		t.Errorf("a large size without the note: %v, want 422 with the note required", err)
	}
	if _, err := client.Submit(t.Context(), "acme", "order", &hubclient.SubmitRequest{Payload: map[string]any{"size": "s", "gift": true}}); err != nil {
		t.Errorf("a small size without the note: %v", err)
	}
}

// compact is raw without its spaces.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// TestConditionsKept: a condition the rows cannot say is shown as its text
// and kept when its field is saved; rows that say what is stored keep it
// as written; a post without the editor leaves conditions alone; no rows
// remove a condition.
func TestConditionsKept(t *testing.T) {
	f := newConditionsForm(t)
	page := f.b.get("/console/forms/acme/contact")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page.body))
	panel := doc.Find(`#f3-visibleIf`)
	if code := compact(t, json.RawMessage(panel.Find("pre code").Text())); code != `{"if":[{"var":"gift"},{"!=":[{"var":"note"},""]},false]}` {
		t.Errorf("the hand-written condition is shown as %q", code)
	}
	if !strings.Contains(panel.Text(), "JSON editor") || panel.Find(`[name="visibleIf"]`).Length() != 0 {
		t.Error("the hand-written condition is not read-only with a pointer to the JSON editor")
	}
	_, before, _ := f.last()
	s := f.act("/fields/3", url.Values{"name": {"wrap"}, "label": {"Wrapping paper"}, "step": {"a"}, "requiredIf": {"rows"}, "requiredIf.join": {"all"}})
	if compact(t, s.Field("wrap").VisibleIf) != compact(t, before.Field("wrap").VisibleIf) || s.Field("wrap").Label != "Wrapping paper" {
		t.Errorf("saving the field changed its hand-written condition: %s", s.Field("wrap").VisibleIf)
	}

	// A condition spelt otherwise but said by the rows stays as written.
	n, _, _ := f.last()
	body := strings.Replace(conditionsBase, `"label":"Gift note"`, `"label":"Gift note","visibleIf":{"var":"gift"}`, 1)
	if res := f.post("/forms/acme/contact", url.Values{"body": {body}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	s = f.act("/fields/2", fieldForm("note", url.Values{"visibleIf": {"rows"}, "visibleIf.0.field": {"gift"}, "visibleIf.0.op": {"checked"}}))
	if got := compact(t, s.Field("note").VisibleIf); got != `{"var":"gift"}` {
		t.Errorf("rows saying the stored condition rewrote it as %s", got)
	}
	// A post without the editor (another client) changes no condition.
	s = f.act("/fields/2", fieldForm("note", nil))
	if got := compact(t, s.Field("note").VisibleIf); got != `{"var":"gift"}` {
		t.Errorf("a post without the editor changed the condition to %s", got)
	}
	// No rows: no condition.
	s = f.act("/fields/2", fieldForm("note", url.Values{"visibleIf": {"rows"}}))
	if s.Field("note").VisibleIf != nil {
		t.Errorf("no rows kept %s", s.Field("note").VisibleIf)
	}
}

// TestConditionsRefused: a row reading the field itself or a field after
// it is refused with a problem that says so, and nothing is saved.
func TestConditionsRefused(t *testing.T) {
	f := newConditionsForm(t)
	for field, want := range map[string]string{
		"note": "a field cannot depend on itself",
		"last": `“Last” comes after this field`,
	} {
		body := f.refused("/fields/2", fieldForm("note", url.Values{
			"visibleIf": {"rows"}, "visibleIf.0.field": {field}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"x"},
		}), http.StatusUnprocessableEntity)
		if !strings.Contains(body, "Show this field when, condition 1: "+want) {
			t.Errorf("row reading %s: the page does not say %q", field, want)
		}
	}
}

// TestConditionsFieldChanged: without JavaScript, a row whose field was
// changed comes back with that field's comparisons and values, rather
// than save a value chosen for the field shown before.
func TestConditionsFieldChanged(t *testing.T) {
	f := newConditionsForm(t)
	body := f.refused("/fields/3", url.Values{"name": {"wrap"}, "step": {"a"},
		"requiredIf": {"rows"}, "requiredIf.0.shown": {"size"},
		"requiredIf.0.field": {"note"}, "requiredIf.0.op": {"is"}, "requiredIf.0.value": {"l"},
	}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "Required when, condition 1: the field changed; choose how to compare it and the value") {
		t.Error("a row whose field changed is not refused")
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	if v, _ := doc.Find(`#f3-requiredIf-0-value`).Attr("type"); v != "text" {
		t.Errorf("the row comes back with a value control of type %q, want the text field's", v)
	}
	f.act("/fields/3", url.Values{"name": {"wrap"}, "step": {"a"},
		"requiredIf": {"rows"}, "requiredIf.0.shown": {"note"},
		"requiredIf.0.field": {"note"}, "requiredIf.0.op": {"is"}, "requiredIf.0.value": {"l"},
	})
}

// TestConditionsAddRow: without JavaScript, "Add condition" shows the
// panel again, as typed, with one more row, and saves nothing; "Remove"
// takes one away.
func TestConditionsAddRow(t *testing.T) {
	f := newConditionsForm(t)
	body := f.refused("/fields/2", fieldForm("note", url.Values{
		"label": {"Typed label"}, "conditionRows": {"add visibleIf"},
		"visibleIf": {"rows"}, "visibleIf.join": {"all"},
		"visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
	}), http.StatusOK)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	if _, open := doc.Find("#field-2").Attr("open"); !open {
		t.Error("the field's panel is not open")
	}
	rows := doc.Find("#f2-visibleIf [data-condition-row]")
	if rows.Length() != 2 {
		t.Fatalf("%d rows, want 2", rows.Length())
	}
	if v, _ := rows.Eq(0).Find(`[name="visibleIf.0.value"] option[selected]`).Attr("value"); v != "l" {
		t.Errorf("the first row's value is %q, want l as typed", v)
	}
	if v, _ := rows.Eq(1).Find(`[name="visibleIf.1.field"] option[selected]`).Attr("value"); v != "gift" {
		t.Errorf("the new row reads %q, want the nearest field above, gift", v)
	}
	ops := rows.Eq(1).Find(`[name="visibleIf.1.op"] option`).Map(func(_ int, s *goquery.Selection) string { return s.Text() })
	if !reflect.DeepEqual(ops, []string{"is checked", "is not checked"}) {
		t.Errorf("a checkbox's comparisons: %q", ops)
	}
	if doc.Find(`#f2-visibleIf select[name="visibleIf.join"]`).Length() != 1 {
		t.Error("two rows without the All/Any choice")
	}
	if v, _ := doc.Find("#f2-label").Attr("value"); v != "Typed label" {
		t.Errorf("the label typed is shown as %q", v)
	}
	body = f.refused("/fields/2", fieldForm("note", url.Values{
		"conditionRows": {"remove visibleIf 0"}, "visibleIf": {"rows"},
		"visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
	}), http.StatusOK)
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
	if n := doc.Find("#f2-visibleIf [data-condition-row]").Length(); n != 0 {
		t.Errorf("%d rows after removing the only one", n)
	}
}

// TestConditionsBadge: a field card with a condition says so, in words.
func TestConditionsBadge(t *testing.T) {
	f := newConditionsForm(t)
	f.act("/fields/2", fieldForm("note", url.Values{
		"visibleIf": {"rows"}, "visibleIf.0.field": {"gift"}, "visibleIf.0.op": {"checked"},
		"requiredIf": {"rows"}, "requiredIf.0.field": {"size"}, "requiredIf.0.op": {"is"}, "requiredIf.0.value": {"l"},
	}))
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(f.b.get("/console/forms/acme/contact").body))
	for sel, want := range map[string]string{
		`#field-2 summary [data-condition-badge="visibleIf"]`:  "Shown when A gift is checked",
		`#field-2 summary [data-condition-badge="requiredIf"]`: "Required when Size is Large",
		`#field-3 summary [data-condition-badge="visibleIf"]`:  "Shown when a condition written in the JSON file",
	} {
		if title, _ := doc.Find(sel).Attr("title"); title != want {
			t.Errorf("%s: title %q, want %q", sel, title, want)
		}
	}
	if n := doc.Find(`#field-0 [data-condition-badge], #field-4 [data-condition-badge]`).Length(); n != 0 {
		t.Errorf("fields without conditions have %d badges", n)
	}
}

// TestConditionsFollowFields: renaming a field follows it in the rows
// that read it; removing it, or renaming it while a hand-written condition
// reads it, is refused naming the field; moving a field above one its
// condition reads is refused.
func TestConditionsFollowFields(t *testing.T) {
	f := newConditionsForm(t)
	f.act("/fields/2", fieldForm("note", url.Values{
		"visibleIf": {"rows"}, "visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
	}))
	s := f.act("/fields/0", url.Values{"name": {"format"}, "label": {"Size"}, "options": {"s|Small\nl|Large"}, "step": {"a"}})
	if got := compact(t, s.Field("note").VisibleIf); got != `{"==":[{"var":"format"},"l"]}` {
		t.Errorf("after the rename the condition is %s", got)
	}
	for _, form := range []url.Values{{"confirmed": {"1"}}, {}} {
		// Refused before the question too: there is nothing to confirm.
		body := f.refused("/fields/1/remove", form, http.StatusUnprocessableEntity)
		if !strings.Contains(body, `“Wrapping” is shown depending on "gift": remove that condition first`) {
			t.Errorf("removing a field a condition reads (%v) is not refused naming the field", form)
		}
	}
	body := f.refused("/fields/1", url.Values{"name": {"present"}, "step": {"a"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, `the field “Wrapping” has a condition written in the JSON file that reads "gift"`) {
		t.Error("renaming a field a hand-written condition reads is not refused naming the field")
	}
	body = f.refused("/fields/2/move", url.Values{"to": {"0"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, `“Gift note” depends on “Size”, which would then come after it`) {
		t.Error("moving a field above the one its condition reads is not refused")
	}
}

// TestConditionsPreviewLogic: the preview's conditions are those of the
// newest version, not yet published, answered by the console to its
// signed-in members only.
func TestConditionsPreviewLogic(t *testing.T) {
	f := newConditionsForm(t)
	f.act("/fields/2", fieldForm("note", url.Values{
		"visibleIf": {"rows"}, "visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
	}))
	page := f.b.get("/console/forms/acme/contact")
	if !strings.Contains(page.body, `data-hx-post="/console/forms/acme/contact/preview/logic"`) {
		t.Error("the preview's fields do not ask the console's logic route")
	}
	logic := func(b *browser, size string) response {
		return b.do(http.MethodPost, "/console/forms/acme/contact/preview/logic",
			url.Values{"size": {size}, "_csrf": {f.token}, "_hubformLogic": {"vvhhv"}}, map[string]string{"HX-Request": "true"})
	}
	res := logic(f.b, "l")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	slot := doc.Find(`[data-hubform-slot="note"]`)
	if _, hidden := slot.Attr("hidden"); res.status != http.StatusOK || slot.Length() != 1 || hidden {
		t.Errorf("a large size: %d, the note's slot %d, hidden %v: %s", res.status, slot.Length(), hidden, res.body)
	}
	if res := logic(f.tc.browser(), "l"); res.status != http.StatusUnauthorized {
		t.Errorf("without a session: %d, want 401", res.status)
	}
	if res := f.b.do(http.MethodPost, "/console/forms/acme/nothing/preview/logic", url.Values{"_csrf": {f.token}}, nil); res.status != http.StatusNotFound {
		t.Errorf("a form that does not exist: %d, want 404", res.status)
	}
}

// TestConditionsGroupCount: a condition may read a group's number of
// entries, offered after the group in words, written as the schema reads
// it and shown back as rows; a group's own condition cannot read it.
func TestConditionsGroupCount(t *testing.T) {
	f := newBuilderForm(t)
	n, _, _ := f.last()
	body := `{"title":"Team","x-note":"keep me","fields":[
{"name":"team","type":"group","label":"Team members","fields":[{"name":"email","type":"email","label":"E-mail"}]},
{"name":"note","type":"text","label":"Gift note"}],
"steps":[{"id":"a","fields":["team","note"]}]}`
	if res := f.post("/forms/acme/contact", url.Values{"body": {body}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	s := f.act("/fields/1", fieldForm("note", url.Values{
		"visibleIf": {"rows"}, "visibleIf.join": {"all"},
		"visibleIf.0.field": {"team.count"}, "visibleIf.0.op": {"more"}, "visibleIf.0.value": {"2"},
	}))
	if got := compact(t, s.Field("note").VisibleIf); got != `{">":[{"var":"team.count"},2]}` {
		t.Errorf("written as %s", got)
	}
	page := f.b.get("/console/forms/acme/contact?editing=note").body
	if !strings.Contains(page, "Number of Team members is more than 2") || !strings.Contains(page, `<option value="team.count" selected>Number of Team members</option>`) {
		t.Error("the condition is not shown back in words and in its row")
	}
	bad := url.Values{"name": {"team"}, "label": {"Team members"}, "step": {"a"}, "visibleIf": {"rows"},
		"visibleIf.0.field": {"team.count"}, "visibleIf.0.op": {"more"}, "visibleIf.0.value": {"2"}}
	if body := f.refused("/fields/0", bad, http.StatusUnprocessableEntity); !strings.Contains(body, "a field cannot depend on itself") {
		t.Errorf("a group's condition on its own count: %s", body)
	}
}
