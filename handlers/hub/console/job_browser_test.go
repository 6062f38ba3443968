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
	j.report(3)

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
