package main

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// rankForm is a form holding one ranking, required, of four options.
const rankForm = `{
  "title": "Priorities",
  "fields": [
    {"name": "order", "type": "ranking", "label": "Rank what matters most", "required": true,
     "options": [{"value": "price", "label": "Price"}, {"value": "speed", "label": "Speed"},
                 {"value": "support", "label": "Support"}, {"value": "design", "label": "Design"}]}
  ],
  "steps": [{"id": "all", "title": "Priorities", "fields": ["order"]}]
}`

// TestBrowserRanking reorders a ranking in headless Chromium by dragging
// with a mouse and a finger and with the keyboard, and without JavaScript
// by choosing places, and checks the order the hub stored each time.
func TestBrowserRanking(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	forms := exampleFormFiles(t)
	forms["demo/rank"] = rankForm
	run := func(name string, f func(d *browserDemo)) {
		t.Run(name, func(t *testing.T) {
			d := newBrowserDemo(t, browser, demoOptions{forms: forms})
			d.axeSource = axe
			f(d)
		})
	}
	const handles = `document.querySelectorAll('.hubform-rank-handle')`

	run("drag with a mouse", func(d *browserDemo) {
		d.openRanking()
		// Design, last, goes to the top; then Speed below Support.
		d.drag(3, 0, false)
		d.wantOrder("after dragging Design to the top", "design", "price", "speed", "support")
		d.drag(2, 3, false)
		d.wantOrder("after dragging Speed to the end", "design", "price", "support", "speed")
		if got := d.rankStatus(); got != "Speed put down at place 4 of 4." {
			d.t.Errorf("the live region says %q after the drop", got)
		}
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		d.wantStoredOrder("design", "price", "support", "speed")
	})

	run("drag with a finger", func(d *browserDemo) {
		if _, err := chromedp.Call(d.ctx(5*time.Second), emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1}); err != nil {
			d.t.Fatal(err)
		}
		d.openRanking()
		d.drag(0, 2, true)
		d.wantOrder("after dragging Price down by a finger", "speed", "support", "price", "design")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		d.wantStoredOrder("speed", "support", "price", "design")
	})

	run("keyboard", func(d *browserDemo) {
		d.openRanking()
		// A click on a handle that moves nothing ranks nothing.
		d.drag(1, 1, false)
		if n := eval[int](d, `[...document.querySelectorAll('.hubform-ranking select')].filter(s => s.value !== '').length`); n != 0 {
			d.t.Errorf("a click on a handle gave %d places, want none", n)
		}
		// Price: Space lifts it, two arrows down move it, Space puts it down.
		d.do(chromedp.Focus(chromedp.CSS(`.hubform-rank-handle[aria-label="Move Price"]`)))
		d.do(chromedp.KeyEvent(" "))
		if got := d.rankStatus(); got != "Price picked up, at place 1 of 4." {
			d.t.Errorf("the live region says %q after Space", got)
		}
		d.do(chromedp.KeyEvent(kb.ArrowDown))
		if got := d.rankStatus(); got != "Moved Price to place 2 of 4." {
			d.t.Errorf("the live region says %q after an arrow", got)
		}
		d.do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(" "))
		d.wantOrder("after moving Price down twice", "speed", "support", "price", "design")
		if focus := eval[string](d, `document.activeElement.getAttribute('aria-label')`); focus != "Move Price" {
			d.t.Errorf("the focus is on %q after the moves, want Price's handle", focus)
		}
		d.check("ranking-moved")
		// Escape puts a lifted item back.
		d.do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Escape))
		d.wantOrder("after Escape", "speed", "support", "price", "design")
		if got := d.rankStatus(); got != "Move cancelled: Price is back at place 3 of 4." {
			d.t.Errorf("the live region says %q after Escape", got)
		}
		// Alt with an arrow moves at once; End, lifted, to the last place.
		d.do(chromedp.Focus(chromedp.CSS(`.hubform-rank-handle[aria-label="Move Design"]`)),
			chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		d.wantOrder("after Alt+Up on Design", "speed", "support", "design", "price")
		d.do(chromedp.Focus(chromedp.CSS(`.hubform-rank-handle[aria-label="Move Speed"]`)),
			chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(" "))
		d.wantOrder("after End on Speed", "support", "design", "price", "speed")
		// A place chosen in an option's own control moves it there.
		d.do(chromedp.Focus(chromedp.CSS(`.hubform-rank:last-child select`)), chromedp.KeyEvent(kb.ArrowUp))
		d.wantOrder("after choosing place 3 for Speed", "support", "design", "speed", "price")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		d.wantStoredOrder("support", "design", "speed", "price")
	})

	run("without JavaScript", func(d *browserDemo) {
		if _, err := chromedp.Call(d.ctx(5*time.Second), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			d.t.Fatal(err)
		}
		d.do(chromedp.Navigate(d.srv.URL + "/f/demo/rank"))
		if n := eval[int](d, handles+`.length`); n != 0 {
			d.t.Fatalf("%d handles without JavaScript", n)
		}
		// Two options with place 1: the hub's message, the places kept.
		for id, place := range map[string]string{"order": "price:1", "order-2": "speed:1", "order-3": "support:3", "order-4": "design:4"} {
			d.do(chromedp.SetValue(chromedp.ID("hubform-demo-rank-"+id), place))
		}
		d.nativePost(http.StatusUnprocessableEntity)
		d.do(chromedp.WaitVisible(chromedp.ID("hubform-demo-rank-order-error")))
		if got := d.value("hubform-demo-rank-order-3"); got != "support:3" {
			d.t.Errorf("after the error, Support's place is %q", got)
		}
		// axe-core cannot run without JavaScript: the page is checked in
		// "pages" before the script changes it.
		d.screenshot("ranking-no-js-error")
		d.do(chromedp.SetValue(chromedp.ID("hubform-demo-rank-order-2"), "speed:2"))
		d.nativePost(http.StatusOK)
		d.wantStoredOrder("price", "speed", "support", "design")
	})

	run("pages", func(d *browserDemo) {
		// The script comes only to a form with a ranking.
		const loaded = `performance.getEntriesByType('resource').some((e) => e.name.includes('/hubform-ranking.js'))`
		d.open("/f/demo/contact")
		d.waitFor(`document.querySelector('.hubform-drop--ready') !== null`)
		if eval[bool](d, loaded) {
			d.t.Error("the contact form, which has no ranking, loaded hubform-ranking.js")
		}
		d.openRanking()
		if !eval[bool](d, loaded) {
			d.t.Error("the ranking's form did not load hubform-ranking.js")
		}
		for _, size := range []struct {
			name          string
			width, height int64
		}{{"1280", 1280, 900}, {"375", 375, 812}} {
			if _, err := chromedp.Call(d.ctx(5*time.Second), emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: size.width, Height: size.height, DeviceScaleFactor: 1, Mobile: size.width < 600}); err != nil {
				d.t.Fatal(err)
			}
			for _, scheme := range []string{"light", "dark"} {
				d.colorScheme(scheme)
				d.openRanking()
				d.check("ranking-" + size.name + "-" + scheme)
				d.do(chromedp.Focus(chromedp.CSS(`.hubform-rank-handle[aria-label="Move Support"]`)), chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowUp))
				d.check("ranking-lifted-" + size.name + "-" + scheme)
				if size.width < 600 {
					// Nothing is wider than the phone's screen.
					if w := eval[int](d, `document.documentElement.scrollWidth`); w > int(size.width) {
						d.t.Errorf("the page is %d px wide at %d", w, size.width)
					}
				}
			}
		}
		d.colorScheme("")
	})
}

// openRanking opens the ranking's page and waits for its list to be ready.
func (d *browserDemo) openRanking() {
	d.t.Helper()
	d.open("/f/demo/rank")
	d.waitFor(`document.querySelectorAll('.hubform-ranking--ready .hubform-rank-handle').length === 4`)
}

// drag presses on the handle of the from-th item and lets go over the
// middle of the to-th, by mouse or, with touch, by a finger.
func (d *browserDemo) drag(from, to int, touch bool) {
	d.t.Helper()
	type point struct{ X, Y float64 }
	start := eval[point](d, `(() => { const r = document.querySelectorAll('.hubform-rank-handle')[`+itoa(int64(from))+`].getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`)
	// Past the middle of the target, on the side the item comes from.
	end := eval[point](d, `(() => { const r = document.querySelectorAll('.hubform-rank')[`+itoa(int64(to))+`].getBoundingClientRect(); return {X: r.x + 20, Y: r.y + r.height * (`+itoa(int64(to))+` > `+itoa(int64(from))+` ? 0.8 : 0.2)}; })()`)
	// The pointer comes to the handle before it presses, as a hand does.
	actions := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, start.X, start.Y, chromedp.ButtonNone)}
	step := func(i int) (x, y float64) {
		f := float64(i) / 8
		return start.X + (end.X-start.X)*f, start.Y + (end.Y-start.Y)*f
	}
	for i := 0; i <= 9; i++ {
		x, y := step(min(i, 8))
		if touch {
			typ := input.DispatchTouchEventTypeTouchMove
			points := []*input.TouchPoint{{X: x, Y: y}}
			switch i {
			case 0:
				typ = input.DispatchTouchEventTypeTouchStart
			case 9:
				typ, points = input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}
			}
			actions = append(actions, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: points})
				return err
			}))
			continue
		}
		typ := input.DispatchMouseEventTypeMouseMoved
		switch i {
		case 0:
			typ = input.DispatchMouseEventTypeMousePressed
		case 9:
			typ = input.DispatchMouseEventTypeMouseReleased
		}
		actions = append(actions, chromedp.MouseEvent(typ, x, y, chromedp.ButtonLeft, func(p *input.DispatchMouseEventParams) {
			p.Buttons = 1
			if typ != input.DispatchMouseEventTypeMouseMoved {
				p.ClickCount = 1
			}
		}))
	}
	d.do(actions...)
}

// wantOrder checks the order the list shows and the places its controls
// hold, which must agree.
func (d *browserDemo) wantOrder(when string, want ...string) {
	d.t.Helper()
	type item struct{ Value, Place string }
	items := eval[[]item](d, `[...document.querySelectorAll('.hubform-rank')].map((li, i) => { const v = li.querySelector('select').value; return {Value: v.slice(0, v.lastIndexOf(':')), Place: v.slice(v.lastIndexOf(':') + 1)}; })`)
	var got []string
	for i, it := range items {
		got = append(got, it.Value)
		if it.Place != itoa(int64(i+1)) {
			d.t.Errorf("%s: %s is shown at place %d but its control holds %s", when, it.Value, i+1, it.Place)
		}
	}
	if !slices.Equal(got, want) {
		d.t.Errorf("%s: the list shows %v, want %v", when, got, want)
	}
}

// rankStatus is what the ranking's live region says.
func (d *browserDemo) rankStatus() string {
	d.t.Helper()
	return strings.TrimSpace(eval[string](d, `document.querySelector('[data-hubform-rank-status]').textContent`))
}

// wantStoredOrder checks the ranking the hub stored, the only submission.
func (d *browserDemo) wantStoredOrder(want ...string) {
	d.t.Helper()
	got, _ := json.Marshal(d.payload(d.onlySubmission("demo", "rank"))["order"])
	if w, _ := json.Marshal(want); string(got) != string(w) {
		d.t.Errorf("the hub stored the order %s, want %s", got, w)
	}
}
