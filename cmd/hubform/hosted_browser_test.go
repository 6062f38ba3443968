package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/static/browsertest"
)

// applyForm has two steps, a condition (a role of one's own appears for
// "Other") and a required file.
const applyForm = `{
  "title": "Apply to Acme",
  "description": "Tell us who you are and send your CV.",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "role", "type": "select", "label": "Role", "required": true,
     "options": [{"value": "dev", "label": "Developer"}, {"value": "other", "label": "Other"}]},
    {"name": "roleOther", "type": "text", "label": "Which role?", "required": true,
     "visibleIf": {"==": [{"var": "role"}, "other"]}},
    {"name": "cv", "type": "file", "label": "Your CV", "required": true},
    {"name": "note", "type": "textarea", "label": "Anything else?"},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [
    {"id": "about", "title": "About you", "fields": ["name", "role", "roleOther"]},
    {"id": "papers", "title": "Your CV", "fields": ["cv", "note", "_hp"]}
  ],
  "buttons": {"submit": "Apply", "next": "Next", "back": "Back"}
}`

// cspProbe runs in every document before its scripts and records what
// the page's Content-Security-Policy refused.
const cspProbe = `window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => __csp.push(e.violatedDirective + ' ' + e.blockedURI));`

// TestBrowserHosted drives a form's page on a hubform hub process in
// headless Chromium: a form of two steps with a condition and a file
// reaches the thank-you panel with JavaScript and without it, light and
// dark, on a phone's narrow screen, with axe-core checking each state and
// nothing refused by the page's policy.
func TestBrowserHosted(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	run := func(name string, f func(h *hostedTab)) {
		t.Run(name, func(t *testing.T) { f(newHostedTab(t, browser, axe)) })
	}

	run("with JavaScript", applyWithJavaScript)

	// A hub keeping files in a bucket answers its presigned URLs, which the
	// page's policy lets the browser send the file to.
	t.Run("with JavaScript, files in a bucket", func(t *testing.T) {
		bucketURL := s3test.URL(t)
		s3test.AllowBrowsers(t, bucketURL)
		files, err := s3blob.Open(context.Background(), bucketURL)
		if err != nil {
			t.Fatal(err)
		}
		defer files.Close()
		h := newHostedTab(t, browser, axe, "--blob", bucketURL)
		h.stored = func(key string) ([]byte, error) {
			r, err := files.NewReader(context.Background(), key)
			if err != nil {
				return nil, err
			}
			defer r.Close()
			return io.ReadAll(r)
		}
		applyWithJavaScript(h)
	})

	// With a captcha, the page loads the provider's widget, which its
	// policy allows, and the hub checks the widget's token with the
	// provider, naming the visitor.
	t.Run("with a captcha", func(t *testing.T) {
		const token = "token-of-the-widget"
		turnstile := newTurnstileStandIn(t, token)
		h := newHostedTab(t, browser, axe, "--turnstile-script-url", turnstile.scriptURL(),
			"--turnstile-verify-url", turnstile.verifyURL(), "--turnstile-secret", "hub-secret")
		h.open("/f/acme/ask")
		h.do(chromedp.SendKeys(chromedp.ID("hubform-acme-ask-question"), "Is it open on Sundays?"))
		h.click(`[data-hubform-submit]`)
		h.waitFor(`document.querySelector('[data-vendor-hubform-submitted]') !== null`)
		calls := turnstile.verifications()
		if len(calls) != 1 || calls[0].Get("response") != token || calls[0].Get("secret") != "hub-secret" || calls[0].Get("remoteip") != "127.0.0.1" {
			t.Errorf("the provider was asked %v, want the widget's token once, with the hub's secret and the visitor's address", calls)
		}
		h.wantNoViolations()
	})

	run("without JavaScript", func(h *hostedTab) {
		if _, err := chromedp.Call(h.ctx(5*time.Second), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			h.t.Fatal(err)
		}
		cv := h.tempFile("cv.txt", []byte("A CV sent without scripts.\n"))
		h.do(chromedp.Navigate(h.base + "/f/acme/apply")) // no script will run: nothing to wait for
		if h.evalBool(`typeof window.htmx !== 'undefined'`) {
			h.t.Fatal("the page ran its scripts with script execution disabled")
		}
		// Every step shows at once; the role of one's own appears once the
		// form is sent with "Other" chosen, named by a banner.
		h.fill("name", "Jo Roe")
		h.do(chromedp.SetValue(chromedp.ID("hubform-acme-apply-role"), "other"))
		h.evalBool(`document.querySelector('form[data-hubform-form]').noValidate = true`)
		h.nativePost(422)
		h.do(chromedp.WaitVisible(chromedp.CSS(`[data-hubform-revealed] a[href="#hubform-acme-apply-roleOther"]`)), chromedp.WaitVisible(chromedp.ID("hubform-acme-apply-roleOther")))
		if got := h.eval(`document.getElementById('hubform-acme-apply-name').value`); got != "Jo Roe" {
			h.t.Errorf("after the errors, the name holds %q", got)
		}
		h.checkWithoutScripts("the form with its errors, without JavaScript")
		h.fill("roleOther", "Tester")
		h.do(chromedp.SetUploadFiles(chromedp.ID("hubform-acme-apply-cv"), []string{cv}))
		h.nativePost(200)
		h.do(chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		if got := h.eval(`document.title`); got != "Apply to Acme" {
			h.t.Errorf("the thank-you page's title %q", got)
		}
		h.checkWithoutScripts("the thank-you page, without JavaScript")
		h.wantStored(map[string]any{"name": "Jo Roe", "role": "other", "roleOther": "Tester"}, cv)
	})

	run("dark, on a phone", func(h *hostedTab) {
		if _, err := chromedp.Call(h.ctx(5*time.Second), emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: 375, Height: 740, DeviceScaleFactor: 2, Mobile: true,
		}); err != nil {
			h.t.Fatal(err)
		}
		if _, err := chromedp.Call(h.ctx(5*time.Second), emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		}); err != nil {
			h.t.Fatal(err)
		}
		h.open("/f/acme/apply?locale=de")
		noScroll := `document.documentElement.scrollWidth <= document.documentElement.clientWidth && innerWidth === 375`
		if !h.evalBool(noScroll) {
			h.t.Errorf("a 375 px wide screen scrolls sideways: %s px of content in %s", h.eval(`String(document.documentElement.scrollWidth)`), h.eval(`String(innerWidth)`))
		}
		if bg := h.eval(`getComputedStyle(document.body).backgroundColor`); bg == "rgb(255, 255, 255)" {
			h.t.Errorf("the page stays light in dark mode: body background %s", bg)
		}
		h.check("the form, dark and narrow")
		// The hub's errors fit as well.
		h.fill("name", "Jo")
		h.choose("role", "dev")
		h.click(`fieldset[data-hubform-step="about"] [data-hubform-next]`)
		h.waitFor(`document.querySelector('fieldset[data-hubform-step="papers"]').checkVisibility()`)
		h.evalBool(`document.querySelector('form[data-hubform-form]').noValidate = true`)
		h.click(`[data-hubform-submit]`)
		h.waitFor(`document.querySelector('[data-hubform-errors] li') !== null`)
		if !h.evalBool(noScroll) {
			h.t.Errorf("with errors, a 375 px wide screen scrolls sideways: %s px", h.eval(`String(document.documentElement.scrollWidth)`))
		}
		h.check("the form's errors, dark and narrow")
		h.wantNoViolations()
	})
}

// hostedTab is a tab on a hub process that serves applyForm as acme/apply.
type hostedTab struct {
	t    *testing.T
	tab  context.Context
	base string // the hub's address
	data string // its data directory
	axe  string
	// stored reads a stored file by its key; nil means from the data
	// directory.
	stored func(key string) ([]byte, error)
}

// askForm is a form of one field behind a Turnstile captcha.
const askForm = `{"title": "Ask Acme", "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"},
  "fields": [{"name": "question", "type": "textarea", "label": "Your question", "required": true}],
  "steps": [{"id": "ask", "fields": ["question"]}]}`

func newHostedTab(t *testing.T, browser context.Context, axe string, hubArgs ...string) *hostedTab {
	t.Helper()
	forms := t.TempDir()
	os.MkdirAll(filepath.Join(forms, "acme"), 0o755)
	for name, form := range map[string]string{"apply": applyForm, "ask": askForm} {
		if err := os.WriteFile(filepath.Join(forms, "acme", name+".json"), []byte(form), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := t.TempDir()
	p := startHub(t, forms, data, hubArgs...)
	h := &hostedTab{t: t, tab: browsertest.NewTab(t, browser), base: strings.TrimSuffix(p.url, "/v1"), data: data, axe: axe}
	if _, err := chromedp.Call(h.ctx(5*time.Second), page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspProbe}); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *hostedTab) ctx(timeout time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(h.tab, timeout)
	h.t.Cleanup(cancel)
	return ctx
}

func (h *hostedTab) do(actions ...chromedp.Action[chromedp.Void]) {
	h.t.Helper()
	if err := chromedp.Do(h.ctx(10*time.Second), actions...); err != nil {
		h.t.Fatal(err)
	}
}

func (h *hostedTab) eval(js string) string {
	h.t.Helper()
	return browsertest.Eval[string](h.t, h.tab, 10*time.Second, js)
}

func (h *hostedTab) evalBool(js string) bool {
	h.t.Helper()
	return browsertest.Eval[bool](h.t, h.tab, 10*time.Second, js)
}

func (h *hostedTab) waitFor(js string) {
	h.t.Helper()
	browsertest.WaitFor(h.t, h.tab, 10*time.Second, js)
}

// open loads a page of the hub and waits until its scripts have run,
// htmx last.
func (h *hostedTab) open(path string) {
	h.t.Helper()
	h.do(chromedp.Navigate(h.base + path))
	h.waitFor(`typeof window.htmx !== 'undefined' && typeof window.hubformScript !== 'undefined'`)
}

func (h *hostedTab) fill(field, value string) {
	h.t.Helper()
	h.do(chromedp.SendKeys(chromedp.ID("hubform-acme-apply-"+field), value))
}

// choose sets a select as a person would: it takes the focus and fires
// change, which htmx answers with the fields a condition shows.
func (h *hostedTab) choose(field, value string) {
	h.t.Helper()
	id := "hubform-acme-apply-" + field
	h.do(chromedp.Focus(chromedp.ID(id)), chromedp.SetValue(chromedp.ID(id), value))
	h.evalBool(fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event('change', {bubbles: true}))`, id))
}

func (h *hostedTab) click(selector string) {
	h.t.Helper()
	h.do(chromedp.Click(chromedp.CSS(selector)))
}

// nativePost clicks the submit button of a page without JavaScript and
// checks the status of the page that answers.
func (h *hostedTab) nativePost(status int) {
	h.t.Helper()
	res, err := chromedp.RunResponse(h.ctx(20*time.Second), chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
	if err != nil {
		h.t.Fatalf("native post: %v", err)
	}
	if res.Status != int64(status) {
		h.t.Errorf("native post answered %d, want %d", res.Status, status)
	}
}

// check saves a screenshot of the page as it is and runs axe-core on it:
// unlike checkAxe, any violation fails, best practices included.
func (h *hostedTab) check(state string) {
	h.t.Helper()
	png, err := chromedp.Run(h.ctx(10*time.Second), chromedp.FullScreenshot(100))
	if err != nil {
		h.t.Fatalf("screenshot of %s: %v", state, err)
	}
	name := strings.NewReplacer(" ", "-", ",", "", "'", "").Replace(state) + ".png"
	if err := os.WriteFile(filepath.Join(h.t.ArtifactDir(), name), png, 0o644); err != nil {
		h.t.Fatal(err)
	}
	if h.axe == "" {
		return
	}
	if !h.evalBool(`typeof window.axe !== 'undefined'`) {
		browsertest.Eval[bool](h.t, h.tab, 10*time.Second, h.axe+"\n;true")
	}
	violations := browsertest.Eval[[]browsertest.AxeViolation](h.t, h.tab, 20*time.Second, `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({
	  id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl,
	  targets: v.nodes.map((n) => String(n.target)),
	})))`, chromedp.EvalAwaitPromise)
	for _, v := range violations {
		h.t.Errorf("axe on %s: %s (%s): %s\n\t%s\n\tat %s", state, v.ID, v.Impact, v.Help, v.HelpURL, strings.Join(v.Targets, "\n\tat "))
	}
}

// checkWithoutScripts runs axe-core on a page loaded without JavaScript:
// scripts run again for the check alone, which needs timers, and the
// page's own, which were never run, stay so.
func (h *hostedTab) checkWithoutScripts(state string) {
	h.t.Helper()
	for _, disabled := range []bool{false, true} {
		if _, err := chromedp.Call(h.ctx(5*time.Second), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled}); err != nil {
			h.t.Fatal(err)
		}
		if !disabled {
			h.check(state)
		}
	}
	if h.evalBool(`typeof window.htmx !== 'undefined'`) {
		h.t.Error("the page's scripts ran")
	}
}

// wantNoViolations checks that the page's policy refused nothing.
func (h *hostedTab) wantNoViolations() {
	h.t.Helper()
	if v := h.eval(`JSON.stringify(window.__csp)`); v != "[]" {
		h.t.Errorf("the page's policy refused %s", v)
	}
}

func (h *hostedTab) tempFile(name string, content []byte) string {
	h.t.Helper()
	path := filepath.Join(h.t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		h.t.Fatal(err)
	}
	return path
}

// wantStored checks that the hub stored one submission of acme/apply with
// the values want, and the file at path as its one attachment.
func (h *hostedTab) wantStored(want map[string]any, path string) {
	h.t.Helper()
	status, stdout, stderr := hubform(h.t, "submissions", "export", "--data", h.data)
	var subs []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &subs) != nil {
		h.t.Fatalf("export: status %d, %q %q", status, stdout, stderr)
	}
	if len(subs) != 1 || subs[0].Site != "acme" || subs[0].Slug != "apply" {
		h.t.Fatalf("stored %+v, want one submission of acme/apply", subs)
	}
	var payload map[string]any
	json.Unmarshal(subs[0].Payload, &payload)
	for name, w := range want {
		if payload[name] != w {
			h.t.Errorf("stored %s = %#v, want %#v", name, payload[name], w)
		}
	}
	content, _ := os.ReadFile(path)
	if a := subs[0].Attachments; len(a) != 1 || a[0].Filename != filepath.Base(path) || a[0].Field != "cv" {
		h.t.Fatalf("attachments %+v, want %s", a, filepath.Base(path))
	}
	read := h.stored
	if read == nil {
		read = func(key string) ([]byte, error) {
			return os.ReadFile(filepath.Join(h.data, "files", filepath.FromSlash(key)))
		}
	}
	stored, err := read(subs[0].Attachments[0].Key)
	if err != nil || !bytes.Equal(stored, content) {
		h.t.Errorf("the stored file differs from the one chosen (%v)", err)
	}
}

// applyWithJavaScript fills and sends acme/apply with JavaScript: the CV
// goes from the browser straight to the hub's storage, and the post
// carries its ticket.
func applyWithJavaScript(h *hostedTab) {
	cv := h.tempFile("cv.pdf", []byte("%PDF-1.4 a CV of some length\n"))
	h.open("/f/acme/apply")
	if got := h.eval(`document.title`); got != "Apply to Acme" {
		h.t.Errorf("title %q", got)
	}
	// The title shows once, as the page's heading.
	if got := h.eval(`[...document.querySelectorAll('h1, h2')].filter((e) => e.checkVisibility()).map((e) => e.tagName + ' ' + e.textContent).join('; ')`); got != "H1 Apply to Acme" {
		h.t.Errorf("visible headings %q, want the title once, as h1", got)
	}
	h.check("the form")
	h.fill("name", "Jane Doe")
	h.choose("role", "other")
	h.waitFor(`document.getElementById('hubform-acme-apply-roleOther').checkVisibility()`)
	h.fill("roleOther", "Designer")
	h.click(`fieldset[data-hubform-step="about"] [data-hubform-next]`)
	h.waitFor(`document.querySelector('fieldset[data-hubform-step="papers"]').checkVisibility()`)
	h.do(chromedp.SetUploadFiles(chromedp.ID("hubform-acme-apply-cv"), []string{cv}))
	h.waitFor(`document.querySelector('#hubform-acme-apply-cv-uploads li[data-state="done"] input[type="hidden"][name="cv"]') !== null`)
	if !h.evalBool(`document.getElementById('hubform-acme-apply-cv').value === ''`) {
		h.t.Error("the file input still holds the file, which the post would carry")
	}
	h.check("the form with its file uploaded")
	h.fill("note", "Sent with htmx.")
	h.click(`[data-hubform-submit]`)
	h.waitFor(`document.querySelector('[data-vendor-hubform-submitted]') !== null`)
	if !h.evalBool(`location.pathname === '/f/acme/apply'`) {
		h.t.Error("the page was left: the form was not posted with htmx")
	}
	h.check("the thank-you panel")
	h.wantStored(map[string]any{"name": "Jane Doe", "role": "other", "roleOther": "Designer", "note": "Sent with htmx."}, cv)
	h.wantNoViolations()
}
