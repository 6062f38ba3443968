package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserConditions drives the demo survey's conditions in headless
// Chromium: "Other…" reveals a field, with htmx as the visitor chooses
// and without JavaScript when the form is sent; a plan skips a step.
func TestBrowserConditions(t *testing.T) {
	browser := browsertest.New(t)
	run := func(name string, f func(d *browserDemo)) {
		t.Run(name, func(t *testing.T) { f(newBrowserDemo(t, browser, demoOptions{})) })
	}
	const other = "hubform-demo-survey-countryOther"
	shown := func(d *browserDemo, id string) bool {
		return eval[bool](d, fmt.Sprintf(`document.getElementById(%q).checkVisibility()`, id))
	}
	// choose sets a select or clicks a radio as a person would: the element
	// takes the focus and fires change.
	choose := func(d *browserDemo, id, value string) {
		d.do(chromedp.Focus(chromedp.ID(id)), chromedp.SetValue(chromedp.ID(id), value))
		eval[bool](d, fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event('change', {bubbles: true}))`, id))
	}
	toUsage := func(d *browserDemo) {
		d.open("/f/demo/survey")
		d.fill("hubform-demo-survey-name", "Jane Doe")
		d.fill("hubform-demo-survey-email", "jane@example.com")
		d.clickStep("about", "next")
		d.wantStep("usage", "Step 2 of 3")
	}

	run("a field appears, keeps the focus, and is dropped when hidden", func(d *browserDemo) {
		toUsage(d)
		if shown(d, other) {
			t.Fatal("the field for another country shows before it is chosen")
		}
		choose(d, "hubform-demo-survey-country", "other")
		d.waitFor(fmt.Sprintf(`document.getElementById(%q).checkVisibility() && document.getElementById(%q).required`, other, other))
		if focus := eval[string](d, `document.activeElement.id`); focus != "hubform-demo-survey-country" {
			t.Errorf("focus moved to %q after the field appeared, want it on the country", focus)
		}
		// Typing in the revealed field while a change elsewhere is answered
		// keeps the focus and the text there.
		d.fill(other, "Narnia")
		eval[bool](d, `(() => { const r = document.getElementById('hubform-demo-survey-plan'); r.checked = true;
		  return r.dispatchEvent(new Event('change', {bubbles: true})); })()`)
		d.fill(other, "!")
		d.waitFor(`document.querySelector('[data-hubform-skip]') !== null`)
		if focus, value := eval[string](d, `document.activeElement.id`), d.value(other); focus != other || value != "Narnia!" {
			t.Errorf("focus on %q holding %q, want %s holding Narnia!", focus, value, other)
		}
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-plan-2")))
		d.waitFor(`document.querySelector('[data-hubform-skip]') === null`)
		// Chosen away again, the field hides and its value is not sent.
		choose(d, "hubform-demo-survey-country", "fr")
		d.waitFor(fmt.Sprintf(`!document.getElementById(%q).checkVisibility()`, other))
		d.clickStep("usage", "next")
		d.wantStep("feedback", "Step 3 of 3")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		payload := d.payload(d.onlySubmission("demo", "survey"))
		if _, ok := payload["countryOther"]; ok || payload["country"] != "fr" {
			t.Errorf("stored %v, want country fr and no countryOther", payload)
		}
	})

	run("a step is skipped forward and back", func(d *browserDemo) {
		toUsage(d)
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-plan")))
		d.waitFor(`document.querySelector('[data-hubform-skip]') !== null`)
		d.wantStep("usage", "Step 2 of 2")
		if eval[bool](d, `document.querySelector('fieldset[data-hubform-step="usage"] [data-hubform-next]').checkVisibility()`) {
			t.Error("Next shows on the last step left")
		}
		d.clickStep("usage", "back")
		d.wantStep("about", "Step 1 of 2")
		d.clickStep("about", "next")
		d.wantStep("usage", "Step 2 of 2")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		if p := d.payload(d.onlySubmission("demo", "survey")); p["plan"] != "free" {
			t.Errorf("stored %v", p)
		}
	})

	run("without JavaScript", func(d *browserDemo) {
		if _, err := chromedp.Call(d.ctx(5*time.Second), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		d.do(chromedp.Navigate(d.srv.URL + "/f/demo/survey")) // no script will run: nothing to wait for
		d.fill("hubform-demo-survey-name", "Jane Doe")
		d.fill("hubform-demo-survey-email", "jane@example.com")
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-plan-2")),
			chromedp.SetValue(chromedp.ID("hubform-demo-survey-country"), "other"))
		if shown(d, other) {
			t.Fatal("the field for another country shows before the form is sent")
		}
		if _, err := chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`))); err != nil {
			t.Fatalf("native post: %v", err)
		}
		// Sent, the condition holds: the form comes back for the field,
		// which a banner names, without an error on a field not yet seen,
		// and nothing typed is lost.
		if !shown(d, other) || !strings.Contains(d.text(`[data-hubform-revealed]`), "Which country?") || d.value("hubform-demo-survey-name") != "Jane Doe" {
			t.Fatalf("after sending: field shown %v, banner %q, values kept %q", shown(d, other), d.text(`[data-hubform-revealed]`), d.value("hubform-demo-survey-name"))
		}
		d.fill(other, "Narnia")
		// Ratings, a scale and an NPS are radios, times are the browser's
		// own inputs: all are answered without a script.
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-support-4")), chromedp.Click(chromedp.ID("hubform-demo-survey-recommend-9")),
			chromedp.Click(chromedp.ID("hubform-demo-survey-ease-2")),
			chromedp.SetValue(chromedp.ID("hubform-demo-survey-callAt"), "10:30"), chromedp.SetValue(chromedp.ID("hubform-demo-survey-demoAt"), "2026-12-01T10:00"))
		if _, err := chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`))); err != nil {
			t.Fatalf("native post: %v", err)
		}
		d.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		p := d.payload(d.onlySubmission("demo", "survey"))
		for name, want := range map[string]any{"countryOther": "Narnia", "support": 4.0, "recommend": 9.0, "ease": 2.0, "callAt": "10:30", "demoAt": "2026-12-01T10:00"} {
			if p[name] != want {
				t.Errorf("stored %s = %#v, want %#v (all: %v)", name, p[name], want, p)
			}
		}
		// Chosen away before sending, its value is dropped.
		d.do(chromedp.Navigate(d.srv.URL + "/f/demo/survey")) // no script will run: nothing to wait for
		d.fill("hubform-demo-survey-name", "Jane Doe")
		d.fill("hubform-demo-survey-email", "jane@example.com")
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-plan-2")),
			chromedp.SetValue(chromedp.ID("hubform-demo-survey-country"), "other"))
		chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		d.fill(other, "Atlantis")
		d.do(chromedp.SetValue(chromedp.ID("hubform-demo-survey-country"), "fr"))
		chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		d.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		for _, s := range d.hub.Submissions() {
			if p := d.payload(s); p["country"] == "fr" && p["countryOther"] != nil {
				t.Errorf("stored %v: the hidden field's value was sent", p)
			}
		}
	})
}
