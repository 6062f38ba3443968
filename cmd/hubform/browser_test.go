package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserDemo drives the demo site, on a real test hub, in headless
// Chromium: one browser, a fresh tab and a fresh hub for each subtest.
func TestBrowserDemo(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	run := func(name string, opts demoOptions, f func(d *browserDemo)) {
		t.Run(name, func(t *testing.T) {
			d := newBrowserDemo(t, browser, opts)
			d.axeSource = axe
			f(d)
		})
	}

	run("contact form with two files", demoOptions{}, func(d *browserDemo) {
		files := d.tempFiles(map[string][]byte{
			"notes.txt": []byte("Notes for the contact form.\n"),
			"photo.png": pngBytes(),
		})
		d.open("/f/demo/contact")
		d.fillContact("Jane Doe", "jane@example.com", "Hello from the browser.")
		d.chooseFiles(files)
		d.submitAndWait(`[data-vendor-hubform-submitted]`)

		s := d.onlySubmission("demo", "contact")
		payload := d.payload(s)
		for name, want := range map[string]any{"name": "Jane Doe", "email": "jane@example.com", "message": "Hello from the browser."} {
			if payload[name] != want {
				d.t.Errorf("stored %s = %#v, want %#v", name, payload[name], want)
			}
		}
		d.wantAttachments(s, files)
		d.wantCallbacks(1, 0)
		if p := d.lastPost(); !p.htmx {
			d.t.Error("the form was posted without htmx")
		}
	})

	run("upload progress", demoOptions{}, func(d *browserDemo) {
		const size = 6 << 20
		files := d.tempFiles(map[string][]byte{"big.txt": bytes.Repeat([]byte("hubform "), size/8)})
		d.open("/f/demo/contact")
		d.fillContact("Jane Doe", "jane@example.com", "A big file.")
		// The file goes to the hub's storage as soon as it is chosen, its
		// bar under the input: 6 MiB at 2 MiB/s, about three seconds of
		// progress events.
		eval[bool](d, `(() => {
		  const list = document.getElementById('hubform-demo-contact-files-uploads');
		  window.progressSeen = [];
		  new MutationObserver(() => {
		    const bar = list.querySelector('li[data-state="uploading"] progress');
		    if (bar) progressSeen.push(bar.value);
		  }).observe(list, {attributes: true, attributeFilter: ['value'], subtree: true, childList: true});
		  return true;
		})()`)
		d.throttleUpload(2 << 20)
		d.do(chromedp.SetUploadFiles(chromedp.ID("hubform-demo-contact-files"), files))
		d.waitForWithin(30*time.Second, `document.querySelector('#hubform-demo-contact-files-uploads li[data-state="done"]') !== null`)
		d.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		d.waitForWithin(30*time.Second, `document.querySelector('[data-vendor-hubform-submitted]') !== null`)

		seen := eval[[]float64](d, `progressSeen`)
		var between []float64
		for _, v := range seen {
			if v > 0 && v < 100 && !slices.Contains(between, v) {
				between = append(between, v)
			}
		}
		if len(between) < 3 || !slices.IsSorted(seen) {
			d.t.Errorf("progress values while the file was sent: %v; want at least 3 distinct ones between 0 and 100, rising", seen)
		}
		s := d.onlySubmission("demo", "contact")
		d.wantAttachments(s, files)
		d.wantCallbacks(1, 0)
	})

	run("three-step survey", demoOptions{}, func(d *browserDemo) {
		d.open("/f/demo/survey")
		d.wantStep("about", "Step 1 of 3")

		// Next with the required fields empty stays, at the first of them.
		d.clickStep("about", "next")
		d.wantStep("about", "Step 1 of 3")
		if focus := eval[string](d, `document.activeElement.id`); focus != "hubform-demo-survey-name" {
			d.t.Errorf("focus after Next on empty fields is on %q, want the name field", focus)
		}

		d.fill("hubform-demo-survey-name", "Jane Doe")
		d.fill("hubform-demo-survey-email", "jane@example.com")
		d.fill("hubform-demo-survey-phone", "+49 30 123456")
		d.fill("hubform-demo-survey-website", "https://example.com")
		d.fill("hubform-demo-survey-age", "42")
		d.clickStep("about", "next")
		d.wantStep("usage", "Step 2 of 3")

		d.clickStep("usage", "back")
		d.wantStep("about", "Step 1 of 3")
		for id, want := range map[string]string{"hubform-demo-survey-name": "Jane Doe", "hubform-demo-survey-email": "jane@example.com", "hubform-demo-survey-age": "42"} {
			if got := d.value(id); got != want {
				d.t.Errorf("after Back, #%s holds %q, want %q", id, got, want)
			}
		}

		d.clickStep("about", "next")
		d.wantStep("usage", "Step 2 of 3")
		d.do(
			chromedp.SetValue(chromedp.ID("hubform-demo-survey-since"), "2024-05-01"),
			chromedp.Click(chromedp.ID("hubform-demo-survey-plan-2")),
			chromedp.Click(chromedp.ID("hubform-demo-survey-features")),
			chromedp.Click(chromedp.ID("hubform-demo-survey-features-2")),
			chromedp.SetValue(chromedp.ID("hubform-demo-survey-country"), "fr"),
		)
		d.check("survey-step-2")
		d.clickStep("usage", "next")
		d.wantStep("feedback", "Step 3 of 3")
		d.check("survey-step-3")
		// A star is chosen by a click, an NPS score with the arrow keys, as
		// a radio group is; the stars up to the one chosen are filled.
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-support-4")))
		d.do(chromedp.Focus(chromedp.ID("hubform-demo-survey-recommend")), chromedp.KeyEvent(kb.ArrowRight))
		for range 8 {
			d.do(chromedp.KeyEvent(kb.ArrowRight))
		}
		filled := eval[[]bool](d, `[...document.querySelectorAll('#hubform-demo-survey .hubform-field--rating .hubform-star-icon')].map(svg => getComputedStyle(svg).fill !== 'none')`)
		if !slices.Equal(filled, []bool{true, true, true, true, false}) {
			d.t.Errorf("stars filled after choosing the fourth: %v, want the first four", filled)
		}
		d.do(chromedp.SetValue(chromedp.ID("hubform-demo-survey-callAt"), "10:30"))
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-ease-4")))
		// The ranking by keyboard: Design, lifted with Space, goes up to
		// the top; Speed, with Alt and an arrow, one place down.
		d.waitFor(`document.querySelectorAll('#hubform-demo-survey .hubform-ranking--ready .hubform-rank-handle').length === 4`)
		d.do(chromedp.Focus(chromedp.CSS(`#hubform-demo-survey .hubform-rank-handle[aria-label="Move Design"]`)), chromedp.KeyEvent(" "))
		for range 3 {
			d.do(chromedp.KeyEvent(kb.ArrowUp))
		}
		d.do(chromedp.KeyEvent(" "))
		d.do(chromedp.Focus(chromedp.CSS(`#hubform-demo-survey .hubform-rank-handle[aria-label="Move Speed"]`)),
			chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		d.do(chromedp.SetValue(chromedp.ID("hubform-demo-survey-demoAt"), "2026-03-02T14:30"))
		d.check("survey-step-3-rated")
		d.fill("hubform-demo-survey-comments", "Keep it up.")
		d.do(chromedp.Click(chromedp.ID("hubform-demo-survey-newsletter")))
		d.submitAndWait(`[data-vendor-hubform-submitted]`)

		payload := d.payload(d.onlySubmission("demo", "survey"))
		want := map[string]any{
			"name": "Jane Doe", "email": "jane@example.com", "phone": "+49 30 123456",
			"website": "https://example.com", "age": 42.0, "since": "2024-05-01", "plan": "pro",
			"features": []any{"forms", "uploads"}, "country": "fr", "comments": "Keep it up.",
			"newsletter": true, "recommend": 9.0, "support": 4.0, "callAt": "10:30",
			"ease": 4.0, "priorities": []any{"design", "price", "support", "speed"}, "budget": 250.0,
			"demoAt": "2026-03-02T14:30",
		}
		// Content takes no value: none is sent, none is stored.
		for _, name := range []string{"intro", "feedbackHeading", "divider"} {
			if v, ok := payload[name]; ok {
				d.t.Errorf("stored %s = %v for content", name, v)
			}
		}
		for name, w := range want {
			if got, err := json.Marshal(payload[name]); err != nil || string(got) != mustJSON(w) {
				d.t.Errorf("stored %s = %s, want %s", name, got, mustJSON(w))
			}
		}
		d.wantCallbacks(1, 0)
	})

	run("locale", demoOptions{}, func(d *browserDemo) {
		d.open("/f/demo/survey?locale=de")
		d.wantTexts(pageTexts{
			Title: "Produktumfrage", Status: "Schritt 1 von 3", Legend: "Über Sie",
			EmailLabel: "E-Mail", Next: "Weiter", Submit: "Umfrage senden", Lang: "de",
		})
		d.check("survey-de")

		// The page's own language links switch the locale.
		if _, err := chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`nav[aria-label=Language] a[href="?locale=fr"]`))); err != nil {
			d.t.Fatalf("following the link to fr: %v", err)
		}
		d.waitForScripts()
		d.wantTexts(pageTexts{
			Title: "Enquête produit", Status: "Étape 1 sur 3", Legend: "À propos de vous",
			EmailLabel: "Courriel", Next: "Suivant", Submit: "Envoyer", Lang: "fr",
		})
		d.clickStep("about", "next")
		if msg := eval[string](d, `document.getElementById('hubform-demo-survey-name').validationMessage`); msg == "" {
			d.t.Error("Next on an empty required field gave no validation message")
		}
	})

	run("without JavaScript", demoOptions{}, func(d *browserDemo) {
		if _, err := chromedp.Call(d.ctx(5*time.Second), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			d.t.Fatal(err)
		}
		files := d.tempFiles(map[string][]byte{"notes.txt": []byte("Sent without JavaScript.\n")})
		d.do(chromedp.Navigate(d.srv.URL + "/f/demo/contact")) // no script will run: nothing to wait for
		if eval[bool](d, `typeof window.htmx !== 'undefined' || typeof window.hubformScript !== 'undefined'`) {
			d.t.Fatal("the page ran its scripts with script execution disabled")
		}
		for _, id := range []string{"name", "email", "topic", "message", "files"} {
			d.do(chromedp.WaitVisible(chromedp.ID("hubform-demo-contact-" + id)))
		}
		// A required field left empty, past the browser's own check (as a
		// browser without it would send): the whole page comes back with
		// the field's error, in the demo's layout (Config.Page).
		d.fillContact("Jane Doe", "jane@example.com", "")
		eval[bool](d, `document.querySelector('form[data-hubform-form]').noValidate = true`)
		d.nativePost(http.StatusUnprocessableEntity)
		d.do(chromedp.WaitVisible(chromedp.ID("hubform-demo-contact-message-error")))
		d.wantDemoLayout("the page with the field's error")
		if got := d.value("hubform-demo-contact-email"); got != "jane@example.com" {
			d.t.Errorf("after the field error, the email holds %q", got)
		}

		d.fill("hubform-demo-contact-message", "No scripts here.")
		d.do(chromedp.SetUploadFiles(chromedp.ID("hubform-demo-contact-files"), files))
		d.nativePost(http.StatusOK)
		d.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		d.wantDemoLayout("the thank-you page")
		if p := d.lastPost(); p.htmx || !strings.HasPrefix(p.contentType, "multipart/form-data") {
			d.t.Errorf("the post was htmx %v, %q; want a native multipart post", p.htmx, p.contentType)
		}
		s := d.onlySubmission("demo", "contact")
		if d.payload(s)["message"] != "No scripts here." {
			d.t.Errorf("stored payload %s", s.Payload)
		}
		d.wantAttachments(s, files)
		d.wantCallbacks(1, 0)
	})

	run("hub fails once", demoOptions{}, func(d *browserDemo) {
		files := d.tempFiles(map[string][]byte{
			"notes.txt": []byte("Second try.\n"),
			"photo.png": pngBytes(),
		})
		d.hub.FailNext("/submit", http.StatusServiceUnavailable, "hub is resting")
		d.open("/f/demo/contact")
		d.fillContact("Jane Doe", "jane@example.com", "Will it work?")
		d.chooseFiles(files)
		d.submitAndWait(`[data-hubform-submit-error]`)

		if msg := d.text(`[data-hubform-submit-error]`); !strings.Contains(msg, "cannot be sent right now") || strings.Contains(msg, "hub is resting") {
			d.t.Errorf("error panel says %q, want a message for people, not the hub's", msg)
		}
		for id, want := range map[string]string{"hubform-demo-contact-name": "Jane Doe", "hubform-demo-contact-email": "jane@example.com", "hubform-demo-contact-message": "Will it work?"} {
			if got := d.value(id); got != want {
				d.t.Errorf("after the failure, #%s holds %q, want %q", id, got, want)
			}
		}
		// The files went to the hub's storage when chosen: their tickets
		// are kept for the next try.
		if n := eval[int](d, `document.querySelectorAll('#hubform-demo-contact-files-uploads li[data-state="done"] input[type="hidden"]').length`); n != 2 {
			d.t.Errorf("%d uploaded files are kept after the failure, want 2", n)
		}
		if n := len(d.hub.Submissions()); n != 0 {
			d.t.Errorf("the hub stored %d submissions after refusing, want 0", n)
		}
		d.wantCallbacks(0, 1)
		d.check("submit-error")

		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		d.wantAttachments(d.onlySubmission("demo", "contact"), files)
		d.wantCallbacks(1, 1)
	})

	// The stand-in Turnstile gives this token; the stand-in siteverify
	// accepts it alone.
	token := "test-token-" + rand.Text()
	turnstile := newTurnstileStandIn(t, token)
	forms := exampleFormFiles(t)
	contact, err := withCaptcha([]byte(forms["demo/contact"]), hubclient.CaptchaTurnstile, "1x00000000000000000000AA")
	if err != nil {
		t.Fatal(err)
	}
	forms["demo/contact"] = string(contact)
	run("turnstile", demoOptions{
		forms: forms,
		configureHub: func(c *protocol.Config) {
			c.Captcha = &captcha.Verifier{TurnstileURL: turnstile.verifyURL()}
			c.CaptchaSecrets = map[string]string{hubclient.CaptchaTurnstile: "turnstile-secret"}
		},
		turnstileScript: turnstile.scriptURL(),
	}, func(d *browserDemo) {
		d.open("/f/demo/contact")
		d.waitFor(fmt.Sprintf(`document.querySelector('[data-hubform-captcha-token]').value === %q`, token))
		d.fillContact("Jane Doe", "jane@example.com", "Human, honestly.")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)

		calls := turnstile.verifications()
		if len(calls) != 1 || calls[0].Get("response") != token || calls[0].Get("secret") != "turnstile-secret" {
			d.t.Errorf("siteverify calls %v, want one with response=%s and the secret", calls, token)
		}
		d.onlySubmission("demo", "contact")
		d.wantCallbacks(1, 0)
	})

	// The standalone page's own markup takes hubform.css's look through its
	// classes: its controls are styled as the contact form's.
	run("standalone looks like HubForm", demoOptions{}, func(d *browserDemo) {
		d.open("/f/demo/contact")
		want := d.styles(map[string]string{
			"button": "[data-hubform-submit]",
			"input":  "#hubform-demo-contact-name",
			"label":  `label[for="hubform-demo-contact-name"]`,
		})
		d.open("/standalone")
		got := d.styles(map[string]string{
			"button": `form.hubform-form button[type=submit]`,
			"input":  "#standalone-name",
			"label":  `label[for="standalone-name"]`,
		})
		for el, props := range want {
			for prop, w := range props {
				if g := got[el][prop]; g != w {
					d.t.Errorf("standalone %s: %s is %q, the contact form's %q", el, prop, g, w)
				}
			}
		}
	})

	// Every page and state the demo shows, checked with axe-core and saved
	// as a screenshot.
	run("pages", demoOptions{}, func(d *browserDemo) {
		d.open("/")
		d.check("index")
		d.open("/f/demo/contact")
		d.check("ready")
		d.open("/f/demo/survey")
		d.check("survey")
		d.open("/f/demo/survey?locale=de")
		d.check("survey-de-step-1")
		d.open("/f/demo/unconfigured")
		d.check("unconfigured")
		d.open("/standalone")
		d.check("standalone")

		// The unreachable hub's page loads its form from the browser; a
		// delay on that request holds the loading state for a look.
		d.delay(d.srv.URL+"/hubform-unreachable/*", 2*time.Second)
		d.open("/unreachable")
		d.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-loading]`)))
		d.check("loading")
		d.waitFor(`document.querySelector('[data-hubform] [role=alert]') !== null`)
		if msg := d.text(`[data-hubform] [role=alert]`); !strings.Contains(msg, "could not be loaded") {
			d.t.Errorf("the unreachable hub's page says %q", msg)
		}
		d.check("error")

		// Field errors: the server checks what the browser would have.
		d.open("/f/demo/contact")
		d.fill("hubform-demo-contact-email", "not-an-address")
		eval[bool](d, `(document.querySelector('form[data-hubform-form]').noValidate = true)`)
		d.submitAndWait(`[data-hubform-errors] li`)
		d.waitFor(`document.activeElement.matches('[data-hubform-errors]')`)
		d.check("field-errors")
		d.wantCallbacks(0, 0)
		// The same in the system's dark mode, which hubform.css follows.
		d.colorScheme("dark")
		d.check("field-errors-dark")
		d.colorScheme("")

		eval[bool](d, `(document.getElementById('hubform-demo-contact-email').value = '') === ''`)
		d.fillContact("Jane Doe", "jane@example.com", "Fixed.")
		d.submitAndWait(`[data-vendor-hubform-submitted]`)
		d.check("submitted")

		// One submission with a file, sent from Go.
		file := hubclient.NewFile("notes.txt", "text/plain", 5, func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("hello")), nil
		})
		submit := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: d.hub.URL, SiteID: "demo", FormSlug: "contact"})
		ctx, cancel := context.WithTimeout(d.t.Context(), 10*time.Second)
		defer cancel()
		if _, err := submit.OnSubmit(ctx, map[string]any{
			"name": "Jo", "email": "jo@example.com", "message": "From Go.", "files": []hubclient.File{file},
		}); err != nil {
			d.t.Fatal(err)
		}
		d.open("/submissions")
		d.do(chromedp.WaitVisible(chromedp.CSS(`tr[data-submission] a[download]`)))
		d.check("submissions")
	})
}

// demoOptions adjust the demo and its hub for one subtest.
type demoOptions struct {
	// forms replaces the example forms.
	forms           map[string]string
	configureHub    func(*protocol.Config)
	turnstileScript string
}

// browserDemo is the demo site on a test hub, seen through one tab.
type browserDemo struct {
	t   *testing.T
	tab context.Context
	srv *httptest.Server
	hub *hubtest.Hub

	// axeSource is axe-core's script; empty, check takes screenshots only.
	axeSource string

	successes, failures atomic.Int32

	mu    sync.Mutex
	posts []demoPost
}

// demoPost is a post the demo's submit routes received.
type demoPost struct {
	path, contentType string
	htmx              bool
}

func newBrowserDemo(t *testing.T, browser context.Context, opts demoOptions) *browserDemo {
	t.Helper()
	forms := opts.forms
	if forms == nil {
		forms = exampleFormFiles(t)
	}
	var configure []func(*protocol.Config)
	if opts.configureHub != nil {
		configure = append(configure, opts.configureHub)
	}
	d := &browserDemo{t: t, hub: hubtest.Start(t, forms, configure...)}
	app := newDemoApp(demoConfig{
		hubURL: d.hub.URL, logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		submissions: d.hub.DB, files: d.hub.Blobs, turnstileScript: opts.turnstileScript,
		onSuccess: func(context.Context, handlers.Form, map[string]any) { d.successes.Add(1) },
		onError:   func(context.Context, handlers.Form, error) { d.failures.Add(1) },
	})
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/submit") {
			d.mu.Lock()
			d.posts = append(d.posts, demoPost{path: r.URL.Path, contentType: r.Header.Get("Content-Type"), htmx: r.Header.Get("HX-Request") == "true"})
			d.mu.Unlock()
		}
		app.ServeHTTP(w, r)
	}))
	t.Cleanup(d.srv.Close)
	d.tab = browsertest.NewTab(t, browser)
	return d
}

// nativePost clicks the form's submit button in a tab without JavaScript
// and checks the status of the page the post answers with.
func (d *browserDemo) nativePost(status int) {
	d.t.Helper()
	res, err := chromedp.RunResponse(d.ctx(10*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
	if err != nil {
		d.t.Fatalf("native post: %v", err)
	}
	if res.Status != int64(status) {
		d.t.Errorf("native post answered %d, want %d", res.Status, status)
	}
}

// wantDemoLayout checks that the page is in the demo's layout: its
// navigation and the title's suffix.
func (d *browserDemo) wantDemoLayout(page string) {
	d.t.Helper()
	if !eval[bool](d, `document.querySelector('nav.demo a[href="/submissions"]') !== null && document.title.endsWith(' · hubform demo')`) {
		d.t.Errorf("%s is not in the demo's layout: title %q", page, eval[string](d, `document.title`))
	}
}

// ctx returns the tab's context with a deadline, ended when the test ends.
func (d *browserDemo) ctx(timeout time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(d.tab, timeout)
	d.t.Cleanup(cancel)
	return ctx
}

func (d *browserDemo) do(actions ...chromedp.Action[chromedp.Void]) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.tab, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		d.t.Fatal(err)
	}
}

func eval[T any](d *browserDemo, js string, opts ...chromedp.EvaluateOption) T {
	d.t.Helper()
	return browsertest.Eval[T](d.t, d.tab, 10*time.Second, js, opts...)
}

// open loads a page of the demo and waits for its scripts to have run:
// those the head's loader adds after the load event too, htmx last.
func (d *browserDemo) open(path string) {
	d.t.Helper()
	d.do(chromedp.Navigate(d.srv.URL + path))
	d.waitForScripts()
}

// waitForScripts waits until the scripts that the head's loader adds
// after the load event have run, htmx last.
func (d *browserDemo) waitForScripts() {
	d.t.Helper()
	d.waitFor(`!document.querySelector('script[data-hubform-loader]') || typeof window.htmx !== 'undefined'`)
}

func (d *browserDemo) waitFor(js string) {
	d.t.Helper()
	d.waitForWithin(10*time.Second, js)
}

// waitForWithin waits until the JavaScript predicate is true.
func (d *browserDemo) waitForWithin(timeout time.Duration, js string) {
	d.t.Helper()
	browsertest.WaitFor(d.t, d.tab, timeout, js)
}

func (d *browserDemo) fill(id, value string) {
	d.t.Helper()
	d.do(chromedp.SendKeys(chromedp.ID(id), value))
}

func (d *browserDemo) fillContact(name, email, message string) {
	d.t.Helper()
	d.fill("hubform-demo-contact-name", name)
	d.fill("hubform-demo-contact-email", email)
	d.fill("hubform-demo-contact-message", message)
}

func (d *browserDemo) value(id string) string {
	d.t.Helper()
	return eval[string](d, fmt.Sprintf(`document.getElementById(%q).value`, id))
}

func (d *browserDemo) text(selector string) string {
	d.t.Helper()
	return eval[string](d, fmt.Sprintf(`document.querySelector(%q).textContent.trim()`, selector))
}

// chooseFiles chooses files in the contact form's file input and waits
// until the browser has sent them to the hub's storage. The list of files
// under the input grows meanwhile and moves the button below it: a click
// aimed at the button before would miss it.
func (d *browserDemo) chooseFiles(files []string) {
	d.t.Helper()
	d.do(chromedp.SetUploadFiles(chromedp.ID("hubform-demo-contact-files"), files))
	d.waitFor(fmt.Sprintf(`document.querySelectorAll('#hubform-demo-contact-files-uploads li[data-state="done"]').length === %d`, len(files)))
}

// submitAndWait clicks the form's submit button and waits for an element
// matching selector.
func (d *browserDemo) submitAndWait(selector string) {
	d.t.Helper()
	d.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
	// Files chosen just before go first, from the browser, and the post
	// after them: on a loaded machine that may take seconds. A failure
	// says where the form stood.
	found := browsertest.Eval[bool](d.t, d.tab, 40*time.Second, fmt.Sprintf(`new Promise((resolve) => {
	  const end = Date.now() + 30000;
	  const check = () => document.querySelector(%q) ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(check, 20);
	  check();
	})`, selector), chromedp.EvalAwaitPromise)
	if !found {
		d.t.Fatalf("after the submit, no %s within 30 s; the form reads %q", selector,
			eval[string](d, `(document.querySelector('[data-hubform]') || document.body).innerText.replace(/\n+/g, ' | ')`))
	}
}

func (d *browserDemo) clickStep(step, button string) {
	d.t.Helper()
	d.do(chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="` + step + `"] [data-hubform-` + button + `]`)))
}

// wantStep checks that step is the only visible step of the form and that
// the step status reads status.
func (d *browserDemo) wantStep(step, status string) {
	d.t.Helper()
	type state struct {
		Visible []string `json:"visible"`
		Status  string   `json:"status"`
	}
	got := eval[state](d, `(() => {
	  const f = document.querySelector('form[data-hubform-form]');
	  return {
	    visible: [...f.querySelectorAll('fieldset[data-hubform-step]')].filter((s) => s.checkVisibility()).map((s) => s.dataset.hubformStep),
	    status: f.querySelector('[data-hubform-step-status]').textContent,
	  };
	})()`)
	if !slices.Equal(got.Visible, []string{step}) || got.Status != status {
		d.t.Fatalf("visible steps %q, status %q; want [%s], %q", got.Visible, got.Status, step, status)
	}
}

// styles returns the computed styles that make a control's look, of the
// element each selector names, by the selector's key.
func (d *browserDemo) styles(selectors map[string]string) map[string]map[string]string {
	d.t.Helper()
	return eval[map[string]map[string]string](d, fmt.Sprintf(`(() => {
	  const props = ['color', 'background-color', 'border-top-color', 'border-top-width', 'border-top-left-radius',
	    'padding-top', 'padding-left', 'font-family', 'font-size', 'font-weight', 'width'];
	  const out = {};
	  for (const [key, sel] of Object.entries(%s)) {
	    const el = document.querySelector(sel);
	    if (!el) throw new Error('no element matches ' + sel);
	    const style = getComputedStyle(el);
	    out[key] = Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]));
	  }
	  return out;
	})()`, mustJSON(selectors)))
}

// pageTexts are the translated texts of the survey's first step.
type pageTexts struct {
	Title      string `json:"title"`
	Status     string `json:"status"`
	Legend     string `json:"legend"`
	EmailLabel string `json:"emailLabel"`
	Next       string `json:"next"`
	Submit     string `json:"submit"`
	Lang       string `json:"lang"`
}

func (d *browserDemo) wantTexts(want pageTexts) {
	d.t.Helper()
	got := eval[pageTexts](d, `(() => {
	  const f = document.querySelector('form[data-hubform-form]');
	  const text = (sel) => f.querySelector(sel).textContent.trim();
	  return {
	    title: text('h2.hubform-title'),
	    status: text('[data-hubform-step-status]'),
	    legend: text('fieldset[data-hubform-step="about"] > legend'),
	    emailLabel: text('label[for="hubform-demo-survey-email"]').replace(/\*$/, ''),
	    next: text('fieldset[data-hubform-step="about"] [data-hubform-next]'),
	    submit: text('[data-hubform-submit]'),
	    lang: f.lang,
	  };
	})()`)
	if got != want {
		d.t.Errorf("survey texts\n got %+v\nwant %+v", got, want)
	}
}

func (d *browserDemo) lastPost() demoPost {
	d.t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.posts) == 0 {
		d.t.Fatal("the demo received no post")
	}
	return d.posts[len(d.posts)-1]
}

// onlySubmission returns the hub's one stored submission, which must be of
// site/form.
func (d *browserDemo) onlySubmission(site, form string) hub.Submission {
	d.t.Helper()
	subs := d.hub.Submissions()
	if len(subs) != 1 || subs[0].Site != site || subs[0].Slug != form {
		d.t.Fatalf("the hub stored %d submissions (%+v), want one of %s/%s", len(subs), subs, site, form)
	}
	return subs[0]
}

func (d *browserDemo) payload(s hub.Submission) map[string]any {
	d.t.Helper()
	var p map[string]any
	if err := json.Unmarshal(s.Payload, &p); err != nil {
		d.t.Fatalf("stored payload %s: %v", s.Payload, err)
	}
	return p
}

// wantAttachments checks that s carries exactly the files at paths, byte
// for byte.
func (d *browserDemo) wantAttachments(s hub.Submission, paths []string) {
	d.t.Helper()
	if len(s.Attachments) != len(paths) {
		d.t.Fatalf("stored %d attachments (%+v), want %d", len(s.Attachments), s.Attachments, len(paths))
	}
	for _, path := range paths {
		want, err := os.ReadFile(path)
		if err != nil {
			d.t.Fatal(err)
		}
		i := slices.IndexFunc(s.Attachments, func(a hubclient.Attachment) bool { return a.Filename == filepath.Base(path) })
		if i < 0 {
			d.t.Errorf("no attachment named %s among %+v", filepath.Base(path), s.Attachments)
			continue
		}
		a := s.Attachments[i]
		if got := d.hub.File(a.Key); !bytes.Equal(got, want) || a.Size != int64(len(want)) {
			d.t.Errorf("attachment %s: %d bytes stored (size %d), differing from the %d bytes chosen", a.Filename, len(got), a.Size, len(want))
		}
	}
}

func (d *browserDemo) wantCallbacks(successes, failures int32) {
	d.t.Helper()
	if s, f := d.successes.Load(), d.failures.Load(); s != successes || f != failures {
		d.t.Errorf("OnSuccess ran %d times and OnError %d; want %d and %d", s, f, successes, failures)
	}
}

// tempFiles writes files into a temporary directory and returns their
// paths, sorted.
func (d *browserDemo) tempFiles(files map[string][]byte) []string {
	d.t.Helper()
	dir := d.t.TempDir()
	var paths []string
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			d.t.Fatal(err)
		}
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// throttleUpload limits the tab's upload rate to bytesPerSecond.
func (d *browserDemo) throttleUpload(bytesPerSecond float64) {
	d.t.Helper()
	d.emulate(network.Conditions{DownloadThroughput: -1, UploadThroughput: bytesPerSecond})
}

// delay holds the answers to requests matching urlPattern back by latency.
func (d *browserDemo) delay(urlPattern string, latency time.Duration) {
	d.t.Helper()
	d.emulate(network.Conditions{URLPattern: urlPattern, Latency: float64(latency.Milliseconds()), DownloadThroughput: -1, UploadThroughput: -1})
}

// colorScheme emulates the system's colour scheme: see browsertest.ColorScheme.
func (d *browserDemo) colorScheme(scheme string) {
	d.t.Helper()
	browsertest.ColorScheme(d.t, d.tab, scheme)
}

func (d *browserDemo) emulate(c network.Conditions) {
	d.t.Helper()
	browsertest.EmulateNetwork(d.t, d.tab, c)
}

// screenshot saves a full-page PNG of the tab into the test's artifact
// directory.
func (d *browserDemo) screenshot(name string) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		d.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(d.t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		d.t.Fatal(err)
	}
	d.t.Logf("screenshot %s: %s", name, path)
}

// check saves a screenshot of the page as it is and runs axe-core on it.
func (d *browserDemo) check(name string) {
	d.t.Helper()
	d.screenshot(name)
	d.axe(name)
}

// axe runs axe-core on the page and fails the test on any serious or
// critical violation; lesser ones are logged.
func (d *browserDemo) axe(page string) {
	d.t.Helper()
	browsertest.CheckAxe(d.t, d.tab, d.axeSource, page)
}

// turnstileStandIn serves a stand-in for Cloudflare's Turnstile script,
// whose widget hands out one token, and for its siteverify endpoint, which
// accepts that token alone and records what it was asked.
type turnstileStandIn struct {
	srv   *httptest.Server
	token string

	mu    sync.Mutex
	calls []url.Values
}

const turnstileScript = `(() => {
  let widgets = 0;
  window.turnstile = {
    render(el, opts) {
      const id = 'w' + (++widgets);
      setTimeout(() => opts.callback(TOKEN), 0);
      return id;
    },
    reset(id) {},
    remove(id) {},
    getResponse(id) { return TOKEN; },
  };
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();
`

func newTurnstileStandIn(t *testing.T, token string) *turnstileStandIn {
	s := &turnstileStandIn{token: token}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /turnstile/v0/api.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, strings.ReplaceAll(turnstileScript, "TOKEN", mustJSON(token)))
	})
	mux.HandleFunc("POST /turnstile/v0/siteverify", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.calls = append(s.calls, r.PostForm)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("response") == s.token {
			io.WriteString(w, `{"success": true, "hostname": "127.0.0.1"}`)
			return
		}
		io.WriteString(w, `{"success": false, "error-codes": ["invalid-input-response"]}`)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *turnstileStandIn) scriptURL() string {
	return s.srv.URL + "/turnstile/v0/api.js?render=explicit&onload=hubformTurnstileReady"
}

func (s *turnstileStandIn) verifyURL() string { return s.srv.URL + "/turnstile/v0/siteverify" }

func (s *turnstileStandIn) verifications() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// pngBytes returns a small PNG image.
func pngBytes() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 16)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
