package hosted_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// stepsForm has two steps, a required field on each, and a field the
// page's query fills in.
const stepsForm = `{
  "title": "Two steps",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "source", "type": "text", "label": "Where you heard of us", "prefill": true},
    {"name": "email", "type": "email", "label": "Email", "required": true},
    {"name": "message", "type": "textarea", "label": "Message", "maxLength": 20}
  ],
  "steps": [{"id": "one", "fields": ["name", "source"]}, {"id": "two", "fields": ["email", "message"]}]
}`

// hostPages are the pages of a site other than the hub's that embed its
// forms, each with a strict policy that names the hub's origin alone, and
// the probe that records the policy's violations and the elements'
// events. %[1]s is the hub's origin.
var hostPages = map[string]string{
	"/inline.html": `<h1>Host</h1>
<div id="inline" data-hubform="acme/steps" data-hubform-prefill="source"><a href="%[1]s/f/acme/steps">Fill in the form</a></div>`,
	"/popup.html": `<h1>Host</h1>
<p><button type="button" id="pop" data-hubform-open="acme/steps">Open the form</button></p>
<p><a id="slide" href="%[1]s/f/acme/steps" data-hubform-open="acme/steps" data-hubform-layout="slide">Open it on the side</a></p>`,
	"/once.html": `<h1>Host</h1>
<p><button type="button" id="auto" data-hubform-open="acme/steps" data-hubform-after="0" data-hubform-once>Open the form</button></p>`,
	"/scroll.html": `<h1>Host</h1><div class="tall"></div>
<p><button type="button" id="deep" data-hubform-open="acme/steps" data-hubform-scroll="50">Open the form</button></p>`,
	"/exit.html": `<h1>Host</h1>
<p><button type="button" id="leave" data-hubform-open="acme/steps" data-hubform-exit>Open the form</button></p>`,
	"/forged-host.html": `<h1>Host</h1>
<div id="inline" data-hubform="acme/steps"><a href="%[1]s/f/acme/steps">Fill in the form</a></div>`,
	// forged is a page of the host's origin that, loaded in the hub's
	// frame, posts what the hub's page would.
	"/forged.html": `<p>Forged</p><script src="/forged.js"></script>`,
}

const probeJS = `window.violations = [];
window.events = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
for (const type of ['hubform:ready', 'hubform:submitted', 'hubform:close']) {
  document.addEventListener(type, (e) => events.push({type, target: e.target.id, id: (e.detail && e.detail.id) || ''}));
}`

// startHost serves hostPages on another origin than hub's: localhost,
// where the hub is 127.0.0.1.
func startHost(t *testing.T, hub string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/probe.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, probeJS)
			return
		case "/host.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, ".tall{height:3000px}")
			return
		case "/forged.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `parent.postMessage({type: 'hubform:submitted', id: 'forged'}, '*'); parent.postMessage({type: 'hubform:height', height: 7}, '*');`)
			return
		}
		body, ok := hostPages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		frames := hub
		if r.URL.Path == "/forged-host.html" {
			frames += " 'self'" // for the forged page in the hub's frame
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+hub+"; frame-src "+frames)
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<link rel="stylesheet" href="/host.css"><script src="/probe.js"></script><script async src="%[1]s/embed.js"></script></head><body><main>`+body+`</main></body></html>`, hub)
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// slow is how long a step of these tests may take: a key or a click
// crosses from the page's process to the form's frame's and back, which a
// busy machine (make test's packages at once, on two cores) delays by
// seconds.
const slow = 30 * time.Second

// act runs actions in the tab of ctx, failing t when they fail or take
// longer than slow.
func act(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, slow)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// call sends the browser a command in the tab of ctx, as act runs actions.
func call[P, R any](t *testing.T, ctx context.Context, cmd cdp.Command[P, R], params P) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, cmd, params); err != nil {
		t.Fatal(err)
	}
}

// frameTab attaches to the hub's frame whose URL starts with prefix and
// that skip does not hold, once it is there.
func frameTab(t *testing.T, tab context.Context, prefix string, skip map[target.ID]bool) (context.Context, target.ID) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		infos, err := chromedp.Targets(tab)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasPrefix(info.URL, prefix) && !skip[info.TargetID] {
				ctx, cancel := chromedp.NewContext(tab, chromedp.WithTargetID(info.TargetID))
				t.Cleanup(cancel)
				// The first Do attaches, and the frame's session lives as
				// long as the context Do is given: it gets no deadline, so
				// it is waited for here.
				attached := make(chan error, 1)
				go func() { attached <- chromedp.Do(ctx) }()
				select {
				case err := <-attached:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("attaching to the frame of %s took longer than 10s", info.URL)
				}
				browsertest.WaitFor(t, ctx, 10*time.Second, `document.readyState === 'complete' && !!window.htmx`)
				return ctx, info.TargetID
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no frame of %s", prefix)
	return nil, ""
}

// sameHeight waits until the frame element sel of the host page is as
// tall as the hub's page in it, within 2 px, and the page does not
// scroll in it.
func sameHeight(t *testing.T, tab, frame context.Context, sel, when string) {
	t.Helper()
	var inner, outer float64
	for range 100 {
		inner = browsertest.Eval[float64](t, frame, 5*time.Second, `document.documentElement.getBoundingClientRect().height`)
		outer = browsertest.Eval[float64](t, tab, 5*time.Second, `document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect().height`)
		if math.Abs(inner-outer) <= 2 && browsertest.Eval[bool](t, frame, 5*time.Second, `document.documentElement.scrollHeight <= innerHeight + 1`) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: the page in the frame is %.1f px tall, its frame %.1f px", when, inner, outer)
}

// axeIn runs axe-core in the page of ctx, its frames left to their own
// run, and fails t on a serious or critical violation.
func axeIn(t *testing.T, ctx context.Context, src, page string) {
	t.Helper()
	if src == "" {
		return
	}
	if !browsertest.Eval[bool](t, ctx, 10*time.Second, `typeof window.axe !== 'undefined'`) {
		browsertest.Eval[bool](t, ctx, 10*time.Second, src+"\n;true")
	}
	vs := browsertest.Eval[[]browsertest.AxeViolation](t, ctx, 20*time.Second, `axe.run(document, {iframes: false, resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({
	  id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl, targets: v.nodes.map((n) => String(n.target)),
	})))`, chromedp.EvalAwaitPromise)
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe on %s: %s (%s): %s at %v", page, v.ID, v.Impact, v.Help, v.Targets)
		}
	}
}

func noViolations(t *testing.T, tab context.Context, page string) {
	t.Helper()
	if v := browsertest.Eval[[]string](t, tab, 5*time.Second, `violations`); len(v) != 0 {
		t.Errorf("%s: policy violations %q", page, v)
	}
}

// TestEmbedInlineBrowser puts a form on a page of another site: the frame
// follows the form's height through a step, an error and the thank-you
// panel, the element hears hubform:ready and hubform:submitted with the
// stored submission's id, a message from another origin changes nothing,
// and the site's strict policy sees no violation.
func TestEmbedInlineBrowser(t *testing.T) {
	h := startHub(t, map[string]string{"acme/steps": stepsForm, "acme/newsletter": newsletterForm})
	hubURL := h.Server.URL
	host := startHost(t, hubURL)
	axe := browsertest.Axe(t)
	for _, width := range []int{1280, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tab := browsertest.New(t, browsertest.WindowSize(width, 900))
			// The visitor's browser blocks third-party cookies: the form,
			// a third party on the site, works all the same.
			call(t, tab, network.Enable, network.EnableParams{})
			call(t, tab, network.SetCookieControls, network.SetCookieControlsParams{EnableThirdPartyCookieRestriction: true})
			act(t, tab, chromedp.Navigate(host+"/inline.html?source=newsletter&other=x"))
			browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('#inline iframe')`)
			src := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('#inline iframe').src`)
			if !strings.Contains(src, "source=newsletter") || strings.Contains(src, "other=") || !strings.Contains(src, "embed=1") || !strings.Contains(src, "origin="+url.QueryEscape(host)) {
				t.Errorf("frame's address %s", src)
			}
			if n := browsertest.Eval[int](t, tab, 5*time.Second, `document.querySelectorAll('#inline a').length`); n != 0 {
				t.Errorf("the link without JavaScript is still there beside the frame")
			}
			frame, _ := frameTab(t, tab, hubURL+"/f/acme/steps", nil)
			browsertest.WaitFor(t, tab, 10*time.Second, `events.some((e) => e.type === 'hubform:ready' && e.target === 'inline')`)
			// The frame keeps no cookie: the steps, the error and the post
			// below need none.
			if c := browsertest.Eval[string](t, frame, 5*time.Second, `document.cookie = 'probe=1; SameSite=None; Secure', document.cookie`); c != "" {
				t.Errorf("the frame keeps cookies (%q): third-party cookies are not blocked", c)
			}
			if v := browsertest.Eval[string](t, frame, 5*time.Second, `document.querySelector('[name=source]').value`); v != "newsletter" {
				t.Errorf("prefilled source %q", v)
			}
			sameHeight(t, tab, frame, "#inline iframe", "first step")
			axeIn(t, tab, axe, "the host page")
			axeIn(t, frame, axe, "the form in its frame")
			browsertest.Screenshot(t, tab, fmt.Sprintf("embed-inline-%d", width))
			// Dark, as the system is: the form stays readable.
			browsertest.ColorScheme(t, tab, "dark")
			browsertest.ColorScheme(t, frame, "dark")
			sameHeight(t, tab, frame, "#inline iframe", "first step, dark")
			axeIn(t, frame, axe, "the form in its frame, dark")
			browsertest.Screenshot(t, tab, fmt.Sprintf("embed-inline-%d-dark", width))
			browsertest.ColorScheme(t, tab, "")
			browsertest.ColorScheme(t, frame, "")

			// The second step.
			before := browsertest.Eval[float64](t, tab, 5*time.Second, `document.querySelector('#inline iframe').getBoundingClientRect().height`)
			browsertest.Eval[bool](t, frame, 5*time.Second, `document.querySelector('[name=name]').value = 'Jo', document.querySelector('[data-hubform-next]').click(), true`)
			browsertest.WaitFor(t, frame, 5*time.Second, `document.querySelector('[name=email]').offsetParent !== null`)
			sameHeight(t, tab, frame, "#inline iframe", "the second step")

			// An error, which the hub finds: the message is too long.
			browsertest.Eval[bool](t, frame, 5*time.Second, `document.querySelector('[name=email]').value = 'jo@example.com', document.querySelector('[name=message]').value = 'x'.repeat(60), document.querySelector('[data-hubform-submit]').click(), true`)
			browsertest.WaitFor(t, frame, 10*time.Second, `!!document.querySelector('.hubform-field-error, [data-hubform-errors]') && `+browsertest.HTMXIdle)
			if after := browsertest.Eval[float64](t, tab, 5*time.Second, `document.querySelector('#inline iframe').getBoundingClientRect().height`); after == before {
				t.Errorf("the frame kept its height, %.1f px, through a step and an error", after)
			}
			sameHeight(t, tab, frame, "#inline iframe", "an error")

			// The thank-you panel.
			browsertest.Eval[bool](t, frame, 5*time.Second, `document.querySelector('[name=message]').value = 'Hello', document.querySelector('[data-hubform-submit]').click(), true`)
			browsertest.WaitFor(t, tab, 10*time.Second, `events.some((e) => e.type === 'hubform:submitted')`)
			sameHeight(t, tab, frame, "#inline iframe", "the thank-you panel")
			subs := h.Submissions()
			got := browsertest.Eval[string](t, tab, 5*time.Second, `events.find((e) => e.type === 'hubform:submitted').id`)
			if len(subs) == 0 || got != subs[len(subs)-1].ID {
				t.Errorf("hubform:submitted names %q, the hub stored %d", got, len(subs))
			}
			axeIn(t, frame, axe, "the thank-you panel in its frame")

			noViolations(t, tab, "the inline page")
		})
	}

	t.Run("forged", func(t *testing.T) {
		tab := browsertest.New(t)
		act(t, tab, chromedp.Navigate(host+"/forged-host.html"))
		frame, _ := frameTab(t, tab, hubURL+"/f/acme/steps", nil)
		browsertest.WaitFor(t, tab, 10*time.Second, `events.some((e) => e.type === 'hubform:ready')`)
		sameHeight(t, tab, frame, "#inline iframe", "first step")
		// A page of another origin in the frame posts as the hub's page
		// would, and the host page itself too: neither is heard.
		height := browsertest.Eval[float64](t, tab, 5*time.Second, `document.querySelector('#inline iframe').getBoundingClientRect().height`)
		browsertest.Eval[bool](t, tab, 5*time.Second, `window.postMessage({type: 'hubform:submitted', id: 'self'}, '*'), true`)
		browsertest.Eval[bool](t, frame, 5*time.Second, `location.href = `+"`"+host+"/forged.html`"+`, true`)
		browsertest.WaitFor(t, tab, slow, `(() => { try { return document.querySelector('#inline iframe').contentDocument.readyState === 'complete' } catch { return false } })()`)
		time.Sleep(200 * time.Millisecond)
		if n := browsertest.Eval[int](t, tab, 5*time.Second, `events.filter((e) => e.type === 'hubform:submitted').length`); n != 0 {
			t.Errorf("%d hubform:submitted events, want none", n)
		}
		if now := browsertest.Eval[float64](t, tab, 5*time.Second, `document.querySelector('#inline iframe').getBoundingClientRect().height`); now != height {
			t.Errorf("a forged message resized the frame from %.1f to %.1f", height, now)
		}
	})
}

// TestEmbedPopupBrowser opens a form in a dialog: the focus stays in it,
// Esc and the close button give it back to the button, hubform:close
// arrives; a link opens the slide-in panel instead of the form's page; a
// popup shown once per visitor is not shown again; a scroll depth opens
// one.
func TestEmbedPopupBrowser(t *testing.T) {
	h := startHub(t, map[string]string{"acme/steps": stepsForm})
	hubURL := h.Server.URL
	host := startHost(t, hubURL)
	axe := browsertest.Axe(t)
	for _, width := range []int{1280, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tab := browsertest.New(t, browsertest.WindowSize(width, 900))
			act(t, tab, chromedp.Navigate(host+"/popup.html"))
			browsertest.WaitFor(t, tab, 10*time.Second, `!!window.hubformEmbed && document.querySelector('#pop').hasAttribute('data-hubform-ready')`)
			act(t, tab, chromedp.Click(chromedp.CSS("#pop")))
			browsertest.WaitFor(t, tab, slow, `!!document.querySelector('dialog[open] iframe')`)
			frame, first := frameTab(t, tab, hubURL+"/f/acme/steps", nil)
			browsertest.WaitFor(t, tab, 10*time.Second, `events.some((e) => e.type === 'hubform:ready' && e.target === 'pop')`)
			sameHeight(t, tab, frame, "dialog[open] iframe", "the popup")
			axeIn(t, tab, axe, "the popup")
			axeIn(t, frame, axe, "the form in the popup")
			browsertest.Screenshot(t, tab, fmt.Sprintf("embed-popup-%d", width))

			// Tab after Tab, the focus stays in the dialog, in the form and
			// back on the close button.
			inFrame, onClose := false, false
			for i := range 8 {
				act(t, tab, chromedp.KeyEvent(kb.Tab))
				// The focus crosses from the frame's process to the page's
				// in its own time: it must land in the dialog.
				if !browsertest.Eval[bool](t, tab, 5*time.Second, `new Promise((resolve) => {
				  const end = Date.now() + 1000;
				  const check = () => document.querySelector('dialog[open]').contains(document.activeElement) ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(check, 20);
				  check();
				})`, chromedp.EvalAwaitPromise) {
					t.Fatalf("Tab %d took the focus out of the dialog, to %s", i+1, browsertest.Eval[string](t, tab, 5*time.Second, `document.activeElement.outerHTML.slice(0, 80)`))
				}
				switch browsertest.Eval[string](t, tab, 5*time.Second, `document.activeElement.localName`) {
				case "iframe":
					inFrame = true
				case "button":
					onClose = true
				}
			}
			if !inFrame || !onClose {
				t.Errorf("Tab went through the form %v, to the close button %v", inFrame, onClose)
			}
			// A key pressed while the focus crosses between the frame's
			// process and the page's can be lost, as a person's can: they
			// press it again.
			for range 5 {
				act(t, tab, chromedp.KeyEvent(kb.Escape))
				if browsertest.Eval[bool](t, tab, 5*time.Second, `new Promise((resolve) => {
				  const end = Date.now() + 2000;
				  const check = () => !document.querySelector('dialog') ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(check, 20);
				  check();
				})`, chromedp.EvalAwaitPromise) {
					break
				}
			}
			browsertest.WaitFor(t, tab, slow, `!document.querySelector('dialog') && document.activeElement.id === 'pop'`)
			browsertest.WaitFor(t, tab, slow, `events.some((e) => e.type === 'hubform:close' && e.target === 'pop')`)

			// The close button too.
			act(t, tab, chromedp.Click(chromedp.CSS("#pop")))
			browsertest.WaitFor(t, tab, slow, `!!document.querySelector('dialog[open]')`)
			act(t, tab, chromedp.Click(chromedp.CSS(`dialog[open] button[aria-label="Close"]`)))
			browsertest.WaitFor(t, tab, slow, `!document.querySelector('dialog') && document.activeElement.id === 'pop'`)

			// The link opens the panel on the side, not the form's page.
			act(t, tab, chromedp.Click(chromedp.CSS("#slide")))
			browsertest.WaitFor(t, tab, slow, `!!document.querySelector('dialog[open] iframe')`)
			if u := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname`); u != "/popup.html" {
				t.Errorf("the link went to %s", u)
			}
			if !browsertest.Eval[bool](t, tab, 5*time.Second, `(() => { const r = document.querySelector('dialog[open]').getBoundingClientRect(); return Math.abs(r.right - document.documentElement.clientWidth) <= 1 && Math.abs(r.height - innerHeight) <= 1 })()`) {
				t.Error("the slide-in panel is not at the window's side, its full height")
			}
			slide, _ := frameTab(t, tab, hubURL+"/f/acme/steps", map[target.ID]bool{first: true})
			axeIn(t, tab, axe, "the slide-in panel")
			axeIn(t, slide, axe, "the form in the slide-in panel")
			browsertest.Screenshot(t, tab, fmt.Sprintf("embed-slide-%d", width))
			act(t, tab, chromedp.KeyEvent(kb.Escape))
			browsertest.WaitFor(t, tab, slow, `!document.querySelector('dialog') && document.activeElement.id === 'slide'`)
			noViolations(t, tab, "the popup page")
		})
	}

	t.Run("once", func(t *testing.T) {
		tab := browsertest.New(t)
		act(t, tab, chromedp.Navigate(host+"/once.html"))
		browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('dialog[open]')`)
		act(t, tab, chromedp.KeyEvent(kb.Escape))
		// Opened by itself, it still gives the focus to its button.
		browsertest.WaitFor(t, tab, slow, `!document.querySelector('dialog') && document.activeElement.id === 'auto'`)
		act(t, tab, chromedp.Reload())
		browsertest.WaitFor(t, tab, 10*time.Second, `!!window.hubformEmbed && document.querySelector('#auto').hasAttribute('data-hubform-ready')`)
		time.Sleep(500 * time.Millisecond)
		if browsertest.Eval[bool](t, tab, 5*time.Second, `!!document.querySelector('dialog')`) {
			t.Error("a popup shown once opened again")
		}
		noViolations(t, tab, "the once page")
	})

	t.Run("scroll", func(t *testing.T) {
		tab := browsertest.New(t)
		act(t, tab, chromedp.Navigate(host+"/scroll.html"))
		browsertest.WaitFor(t, tab, 10*time.Second, `!!window.hubformEmbed && document.querySelector('#deep').hasAttribute('data-hubform-ready')`)
		browsertest.Eval[bool](t, tab, 5*time.Second, `scrollTo(0, 300), true`)
		time.Sleep(300 * time.Millisecond)
		if browsertest.Eval[bool](t, tab, 5*time.Second, `!!document.querySelector('dialog')`) {
			t.Error("the popup opened before half the page was seen")
		}
		browsertest.Eval[bool](t, tab, 5*time.Second, `scrollTo(0, 1500), true`)
		browsertest.WaitFor(t, tab, slow, `!!document.querySelector('dialog[open]')`)
		noViolations(t, tab, "the scroll page")
	})

	t.Run("exit", func(t *testing.T) {
		tab := browsertest.New(t)
		act(t, tab, chromedp.Navigate(host+"/exit.html"))
		browsertest.WaitFor(t, tab, 10*time.Second, `!!window.hubformEmbed && document.querySelector('#leave').hasAttribute('data-hubform-ready')`)
		// The mouse leaves the page by its side: no leaving intent; then
		// by its top, towards the tabs and the address bar.
		browsertest.Eval[bool](t, tab, 5*time.Second, `document.documentElement.dispatchEvent(new MouseEvent('mouseout', {bubbles: true, clientX: 0, clientY: 300})), true`)
		time.Sleep(200 * time.Millisecond)
		if browsertest.Eval[bool](t, tab, 5*time.Second, `!!document.querySelector('dialog')`) {
			t.Error("the popup opened when the mouse left by the side")
		}
		browsertest.Eval[bool](t, tab, 5*time.Second, `document.documentElement.dispatchEvent(new MouseEvent('mouseout', {bubbles: true, clientX: 300, clientY: -2})), true`)
		browsertest.WaitFor(t, tab, slow, `!!document.querySelector('dialog[open]')`)
	})
}
