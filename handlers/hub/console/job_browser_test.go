package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// orderFields are the names of the order form's twelve fields, in order,
// as the console derives them from the labels typed.
const orderFields = "name,e_mail,phone_number,shirt_size,colour,quantity,gift,gift_note,delivery_date,logo,comments,newsletter"

// A job counts what an owner does in a browser tab: every click, key
// pressed and text typed, and every page the tab loads.
type job struct {
	*consoleTab
	actions int
	loads   atomic.Int32
}

// newJob counts the page loads of con's tab from now on: a navigation of
// the top frame to another document, which a script can not hide.
func newJob(con *consoleTab) *job {
	j := &job{consoleTab: con}
	err := chromedp.Listen(con.tab, func(ev any) {
		if e, ok := ev.(*page.EventFrameNavigated); ok && e.Frame.ParentID == "" {
			j.loads.Add(1)
		}
	})
	if err != nil {
		con.t.Fatal(err)
	}
	return j
}

// start forgets what was counted so far: the job starts here.
func (j *job) start() { j.actions = 0; j.loads.Store(0) }

// click clicks the element sel finds.
func (j *job) click(sel string) {
	j.t.Helper()
	j.actions++
	j.do(chromedp.Click(chromedp.CSS(sel)))
}

// keys types s, a text or one key, where the focus is.
func (j *job) keys(s string, opts ...chromedp.KeyOption) {
	j.t.Helper()
	j.actions++
	j.do(chromedp.KeyEvent(s, opts...))
}

// typeIn types s into the element sel finds.
func (j *job) typeIn(sel, s string) {
	j.t.Helper()
	j.actions++
	j.do(chromedp.SendKeys(chromedp.CSS(sel), s))
}

// choose sets the value of the select, or date, sel finds, as picking it
// does.
func (j *job) choose(sel, value string) {
	j.t.Helper()
	j.actions++
	j.do(chromedp.SetValue(chromedp.CSS(sel), value))
	browsertest.Eval[string](j.t, j.tab, 5*time.Second, `(() => { const el = document.querySelector(`+jsString(sel)+`); el?.dispatchEvent(new Event('input', {bubbles: true})); el?.dispatchEvent(new Event('change', {bubbles: true})); return 'ok'; })()`)
}

// send clicks the element sel finds, which sends a form, and waits for
// the page it loads to show the element then finds.
func (j *job) send(sel, then string) {
	j.t.Helper()
	n := j.loads.Load()
	j.click(sel)
	for deadline := time.Now().Add(10 * time.Second); j.loads.Load() == n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			j.t.Fatalf("clicking %s loaded no page; hub log:\n%s", sel, j.hub.log)
		}
	}
	j.do(chromedp.WaitReady(chromedp.CSS("body")), chromedp.WaitVisible(chromedp.CSS(then)))
}

// upload chooses file in the file input sel finds.
func (j *job) upload(sel, file string) {
	j.t.Helper()
	j.actions++
	j.do(chromedp.SetUploadFiles(chromedp.CSS(sel), []string{file}))
}

// report logs the counts and fails the test when the job loaded more
// pages than most.
func (j *job) report(most int) {
	j.t.Helper()
	loads := int(j.loads.Load())
	j.t.Logf("job: %d actions, %d page loads", j.actions, loads)
	if loads > most {
		j.t.Errorf("the job loaded %d pages, want at most %d", loads, most)
	}
}

// logoFile is a small PNG file for the order's logo.
func logoFile(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "logo.png")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
	if err := os.WriteFile(name, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// checkOrder checks the store after the order form's job: one
// submission of the live version with the values sent and the logo, and
// one published version, no draft.
func checkOrder(t *testing.T, h *browserHub) {
	t.Helper()
	var subs []hub.Submission
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		subs = subs[:0]
		if err := h.DB.ListSubmissions(t.Context(), hub.Filter{Site: "shop", Slug: "order"}, func(s hub.Submission) error {
			subs = append(subs, s)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(subs) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1; hub log:\n%s", len(subs), h.log)
	}
	var got map[string]any
	if err := json.Unmarshal(subs[0].Payload, &got); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"name": "Ada Lovelace", "e_mail": "ada@example.com", "phone_number": "+44 20 7946 0000", "shirt_size": "Large",
		"colour": "Option 1", "quantity": "3", "gift": "true", "gift_note": "Happy birthday", "delivery_date": "2026-12-24",
		"comments": "Print it large", "newsletter": "[Option 1]",
	} {
		var v string
		switch x := got[name].(type) {
		case string:
			v = x
		case nil:
			v = ""
		default:
			b, _ := json.Marshal(x)
			v = strings.ReplaceAll(strings.ReplaceAll(string(b), `"`, ""), ",", " ")
		}
		if v != want {
			t.Errorf("the submission's %s: %q, want %q", name, v, want)
		}
	}
	if a := subs[0].Attachments; len(a) != 1 || a[0].Filename != "logo.png" || a[0].Field != "logo" {
		t.Errorf("the submission's files: %+v, want the logo", a)
	}
	if subs[0].FormVersion != 1 {
		t.Errorf("the submission was checked against version %d, want 1", subs[0].FormVersion)
	}
	checkVersions(t, h, 1, 1, false)
}

// checkVersions checks how many versions shop/order has, the live one and
// whether the newest is a draft.
func checkVersions(t *testing.T, h *browserHub, n int, live int64, draft bool) {
	t.Helper()
	vs, err := h.DB.FormVersions(t.Context(), "shop", "order")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := h.DB.FormRecord(t.Context(), "shop", "order")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != n || rec.LiveVersion != live || rec.Draft != draft {
		t.Errorf("%d versions, version %d live, draft %v; want %d, %d, %v", len(vs), rec.LiveVersion, rec.Draft, n, live, draft)
	}
}

// fieldNames is the names of the schema's fields, in order.
func fieldNames(p *inPlace) string {
	var names []string
	for _, f := range p.schema().Fields {
		names = append(names, f.Name)
	}
	return strings.Join(names, ",")
}

// TestBrowserOrderFormJob builds an order form of twelve fields on two
// pages, with a required field, a condition and a file, in the preview
// and the field panel alone, publishes it and sends it from the live
// form: the store holds the submission and its file, one published
// version and, after one more edit, one draft. It counts what the owner
// did and the pages loaded, which stay few.
func TestBrowserOrderFormJob(t *testing.T) {
	p := newInPlace(t)
	j := newJob(p.consoleTab)
	j.start()

	// Twelve fields, each added with "/" and the palette's filter, its
	// label typed where it shows.
	j.click("#builder-slash")
	for i, f := range []struct{ filter, label string }{
		{"short", "Name"}, {"email", "E-mail"}, {"phone", "Phone number"}, {"multiple", "Shirt size"},
		{"dropdown", "Colour"}, {"number", "Quantity"}, {"yes/no", "Gift"}, {"short", "Gift note"},
		{"date", "Delivery date"}, {"file", "Logo"}, {"long", "Comments"}, {"checkboxes", "Newsletter"},
	} {
		j.keys("/" + f.filter)
		j.keys(kb.Enter)
		p.saved()
		j.keys(f.label)
		j.keys(kb.Enter)
		p.saved()
		if got, want := p.focused(), fmt.Sprintf("card %d", i); got != want {
			t.Fatalf("after the label of %s the focus is on %q, want %q", f.label, got, want)
		}
	}
	if got := fieldNames(p); got != orderFields {
		t.Fatalf("fields: %s", got)
	}

	// A second size, typed below the first.
	j.actions++
	j.do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="3"]`)))
	j.actions++
	p.focus(`.builder-text[data-index="3"][data-part="option"][data-option="1"]`)
	j.keys("Large")
	j.keys(kb.Enter)
	p.saved()

	// The name required, from its card; a page after the e-mail.
	// A click on the card chooses it, as focusing it does.
	j.actions++
	j.do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)))
	j.click(`.builder-required[data-index="0"]`)
	p.saved()
	j.actions++
	j.do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="1"]`)))
	j.click(`.builder-newpage[data-index="1"]`)
	p.saved()

	// The gift note shown when the gift is ticked: the nearest field
	// above, a box, is offered first, checked.
	j.click(`details[data-field="gift_note"] summary`)
	j.click(`#f7-visibleIf button[value="add visibleIf"]`)
	browsertest.WaitFor(t, p.tab, 10*time.Second, `document.querySelector('#f7-visibleIf [data-condition-row]') && `+browsertest.HTMXIdle)
	if got := p.eval(`document.querySelector('#f7-visibleIf-0-field').value + ' ' + document.querySelector('#f7-visibleIf-0-op').selectedOptions[0].textContent`); got != "gift is checked" {
		t.Errorf("the new condition reads %q", got)
	}
	j.click("#f7-label")
	j.keys(kb.Enter)
	p.saved()

	s := p.schema()
	if !s.Field("name").Required || s.Field("gift_note").VisibleIf == nil || len(s.Steps) != 2 || len(s.Steps[0].Fields) != 2 {
		t.Fatalf("the form built: name required %v, the note's condition %s, steps %s", s.Field("name").Required, s.Field("gift_note").VisibleIf, stepsOf(s))
	}

	// Published with the button, then sent from the live form.
	j.click("#publish summary")
	j.click(`#publish form button[type="submit"]`)
	p.do(chromedp.WaitVisible(chromedp.CSS("#view-live")))
	checkVersions(t, p.hub, 1, 1, false)
	j.click("#view-live")
	p.do(chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-name")))
	browsertest.WaitScripts(t, p.tab)
	j.typeIn("#hubform-shop-order-name", "Ada Lovelace")
	j.typeIn("#hubform-shop-order-e_mail", "ada@example.com")
	j.click(`fieldset[data-hubform-step] [data-hubform-next]`)
	j.typeIn("#hubform-shop-order-phone_number", "+44 20 7946 0000")
	j.click(`input[name="shirt_size"][value="Large"]`)
	j.choose("#hubform-shop-order-colour", "Option 1")
	j.typeIn("#hubform-shop-order-quantity", "3")
	j.click("#hubform-shop-order-gift")
	p.do(chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-gift_note")))
	j.typeIn("#hubform-shop-order-gift_note", "Happy birthday")
	j.choose("#hubform-shop-order-delivery_date", "2026-12-24")
	j.upload("#hubform-shop-order-logo", logoFile(t))
	browsertest.WaitFor(t, p.tab, 10*time.Second, `!!document.querySelector('[data-hubform-drop] li[data-state="done"]')`)
	j.typeIn("#hubform-shop-order-comments", "Print it large")
	j.click(`input[name="newsletter"][value="Option 1"]`)
	j.click(`[data-hubform-submit]`)
	checkOrder(t, p.hub)
	p.screenshot("console-job-sent")
	j.report(2)

	// One more edit makes one draft beside the live version.
	p.do(chromedp.Navigate(p.base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS(`.builder-text[data-index="10"][data-part="label"]`)))
	browsertest.WaitFor(t, p.tab, 10*time.Second, `document.querySelector('#preview[data-builder-ready]') && `+browsertest.HTMXIdle)
	p.version = int(browsertest.Eval[float64](t, p.tab, 5*time.Second, `Number(document.querySelector('#builder').dataset.base)`))
	p.focus(`.builder-text[data-index="10"][data-part="label"]`)
	p.do(chromedp.KeyEvent(" about the print"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	checkVersions(t, p.hub, 2, 1, true)
	p.screenshot("console-job-draft")
}

// TestBrowserOrderFormJobWithoutJavaScript does TestBrowserOrderFormJob's
// job with scripts off, in the fallback editor's forms: Add a field, the
// field panels, Add condition, the Publish disclosure; the live form is
// sent without a script too. Every form sent loads a page; the count
// says how many.
func TestBrowserOrderFormJobWithoutJavaScript(t *testing.T) {
	browser := browsertest.New(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	con.do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	disableScripts(t, con, true)
	con.do(chromedp.Navigate(con.base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.SendKeys(chromedp.CSS("#in-title"), "Order a T-shirt"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")))
	j := newJob(con)
	j.start()
	eval := func(js string) string {
		t.Helper()
		return browsertest.Eval[string](t, con.tab, 10*time.Second, js)
	}
	// loaded waits for the page a form sent loads.
	loaded := func(sel string) {
		t.Helper()
		con.do(chromedp.WaitReady(chromedp.CSS("body")), chromedp.WaitVisible(chromedp.CSS(sel)))
	}

	for i, f := range []struct{ kind, label string }{
		{"text", "Name"}, {"email", "E-mail"}, {"tel", "Phone number"}, {"radio", "Shirt size"},
		{"select", "Colour"}, {"number", "Quantity"}, {"checkbox", "Gift"}, {"text", "Gift note"},
		{"date", "Delivery date"}, {"file", "Logo"}, {"textarea", "Comments"}, {"checkboxes", "Newsletter"},
	} {
		if eval(`String(document.querySelector('.builder-add').open)`) != "true" {
			j.click(".builder-add > summary")
		}
		j.choose("#new-type", f.kind)
		j.typeIn("#new-label", f.label)
		j.send(`form[action="/console/forms/shop/order/fields"] button[type="submit"]`, fmt.Sprintf(`#field-%d`, i))
	}
	if got := eval(`[...document.querySelectorAll('li.builder-field')].map((li) => li.dataset.field).join()`); got != orderFields {
		t.Fatalf("fields: %s", got)
	}

	// field opens the panel of the field at i and saves it after edit.
	field := func(i int, edit func(id string)) {
		t.Helper()
		id := fmt.Sprintf("f%d", i)
		j.click(fmt.Sprintf("#field-%d > summary", i))
		edit(id)
		j.send(fmt.Sprintf(`#field-%d .builder-editor > form:first-of-type button.hubform-button--primary:not([name])`, i), fmt.Sprintf(`#field-%d`, i))
	}
	field(0, func(id string) { j.click("#" + id + "-required") })
	field(3, func(id string) {
		j.click("#" + id + "-options")
		j.keys("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))
		j.keys("Small\nLarge")
	})
	// A new page after the e-mail.
	j.click("#field-1 > summary")
	j.send("#field-1 form.builder-break button", "#field-1")
	// The gift note shown when the gift is ticked.
	j.click("#field-7 > summary")
	j.send(`#f7-visibleIf button[value="add visibleIf"]`, "#f7-visibleIf [data-condition-row]")
	if got := eval(`document.querySelector('#f7-visibleIf-0-field').value + ' ' + document.querySelector('#f7-visibleIf-0-op').selectedOptions[0].textContent`); got != "gift is checked" {
		t.Errorf("the new condition reads %q", got)
	}
	j.send(`#field-7 .builder-editor > form:first-of-type button.hubform-button--primary:not([name])`, "#field-7")

	vs, err := h.DB.FormVersions(t.Context(), "shop", "order")
	if err != nil || len(vs) == 0 {
		t.Fatalf("versions: %v", err)
	}
	v, err := h.DB.FormVersion(t.Context(), "shop", "order", vs[len(vs)-1].Version)
	if err != nil {
		t.Fatal(err)
	}
	var s hubclient.Schema
	if err := json.Unmarshal(v.Body, &s); err != nil {
		t.Fatal(err)
	}
	if !s.Field("name").Required || s.Field("gift_note").VisibleIf == nil || len(s.Steps) != 2 || len(s.Steps[0].Fields) != 2 || len(s.Field("shirt_size").Options) != 2 {
		t.Fatalf("the form built: name required %v, the note's condition %s, steps %s, sizes %+v", s.Field("name").Required, s.Field("gift_note").VisibleIf, stepsOf(s), s.Field("shirt_size").Options)
	}

	// Published from the disclosure, then sent from the live form.
	j.click("#publish summary")
	j.send(`#publish form button[type="submit"]`, "#view-live")
	checkVersions(t, h, 1, 1, false)
	j.send("#view-live", "#hubform-shop-order-name")
	j.typeIn("#hubform-shop-order-name", "Ada Lovelace")
	j.typeIn("#hubform-shop-order-e_mail", "ada@example.com")
	j.typeIn("#hubform-shop-order-phone_number", "+44 20 7946 0000")
	j.click(`input[name="shirt_size"][value="Large"]`)
	j.choose("#hubform-shop-order-colour", "Option 1")
	j.typeIn("#hubform-shop-order-quantity", "3")
	j.click("#hubform-shop-order-gift")
	j.choose("#hubform-shop-order-delivery_date", "2026-12-24")
	j.upload("#hubform-shop-order-logo", logoFile(t))
	j.typeIn("#hubform-shop-order-comments", "Print it large")
	j.click(`input[name="newsletter"][value="Option 1"]`)
	// Without a script the page cannot show the note when the box is
	// ticked: the form comes back for it, naming it, the logo held.
	j.send(`[data-hubform-submit]`, "[data-hubform-revealed]")
	con.screenshot("form-revealed-nojs")
	j.typeIn("#hubform-shop-order-gift_note", "Happy birthday")
	j.click(`[data-hubform-submit]`)
	checkOrder(t, h)
	con.screenshot("console-job-sent-nojs")
	j.report(21)

	// One more edit makes one draft beside the live version.
	con.do(chromedp.Navigate(con.base + "/console/forms/shop/order"))
	loaded("#field-10")
	j.click("#field-10 > summary")
	j.typeIn("#f10-label", " about the print")
	j.send(`#field-10 .builder-editor > form:first-of-type button.hubform-button--primary:not([name])`, "#field-10")
	checkVersions(t, h, 2, 1, true)
	con.screenshot("console-job-draft-nojs")
}
