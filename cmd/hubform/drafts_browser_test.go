package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/static/browsertest"
)

// voyageForm has two steps, a file on the second: the hub keeps its
// drafts.
const voyageForm = `{
  "title": "Voyage",
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "city", "type": "text", "label": "City", "required": true},
    {"name": "ticket", "type": "file", "label": "Ticket", "required": true}
  ],
  "steps": [{"id": "who", "title": "Who", "fields": ["name"]}, {"id": "where", "title": "Where", "fields": ["city", "ticket"]}]
}`

// draftTab is a tab on the hub's page of a form, in a browser of its own.
type draftTab struct {
	t    *testing.T
	tab  context.Context
	base string
}

func newDraftTab(t *testing.T, base string, scripts bool) *draftTab {
	t.Helper()
	d := &draftTab{t: t, tab: browsertest.NewTab(t, browsertest.New(t)), base: base}
	if !scripts {
		if _, err := chromedp.Call(d.tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func (d *draftTab) do(actions ...chromedp.Action[chromedp.Void]) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		d.t.Fatal(err)
	}
}

func (d *draftTab) waitFor(js string) {
	d.t.Helper()
	browsertest.WaitFor(d.t, d.tab, 20*time.Second, js)
}

func (d *draftTab) eval(js string) string {
	d.t.Helper()
	return browsertest.Eval[string](d.t, d.tab, 10*time.Second, js)
}

// value returns the value of the form's input called name.
func (d *draftTab) value(name string) string {
	d.t.Helper()
	return d.eval(fmt.Sprintf(`document.querySelector('[data-hubform-form] [name=%q]')?.value ?? ''`, name))
}

// native clicks selector on a page without scripts and waits for the
// page the post answers.
func (d *draftTab) native(selector string) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.tab, 20*time.Second)
	defer cancel()
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(selector)))
	if err != nil || res.Status != 200 {
		d.t.Fatalf("post by %s: %v, %+v", selector, err, res)
	}
}

// linkTo waits for the e-mail to address and returns the link it carries.
func linkTo(t *testing.T, mp *mailpittest.Server, address string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, s := range mp.Messages(t) {
			m := mp.Message(t, s.ID)
			if len(m.To) == 1 && m.To[0].Address == address {
				if link := regexp.MustCompile(`http://\S+`).FindString(m.Text); link != "" {
					return link
				}
				t.Fatalf("the e-mail to %s carries no link:\n%s", address, m.Text)
			}
		}
	}
	t.Fatalf("no e-mail reached %s", address)
	return ""
}

// TestSaveAndResumeInTheBrowser saves the hub's page of a form of two steps
// at its second step, in headless Chromium, with JavaScript and without:
// the link comes by e-mail, a fresh browser opens it on the values, the
// step and the file saved, and sending the form stores one submission and
// finishes the draft. A tab closed loses only the step it was on. The
// funnel counts each visitor once, not again when they come back to finish.
func TestSaveAndResumeInTheBrowser(t *testing.T) {
	browsertest.New(t) // skips unless a browser can run
	mp := mailpittest.Start(t)
	data := t.TempDir()
	p := startHub(t, formsWith(t, "voyage", voyageForm), data, "--smtp-url", mp.URL(), "--smtp-from", "forms@example.com")
	base := strings.TrimSuffix(p.url, "/v1")
	ticket := filepath.Join(t.TempDir(), "ticket.pdf")
	os.WriteFile(ticket, []byte("%PDF-1.4 a ticket\n"), 0o600)

	t.Run("with JavaScript", func(t *testing.T) {
		a := newDraftTab(t, base, true)
		a.do(chromedp.Navigate(base + "/f/acme/voyage"))
		a.waitFor(`typeof window.htmx !== 'undefined' && typeof window.hubformScript !== 'undefined'`)
		a.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=name]`), "Ada"))
		a.do(chromedp.Click(chromedp.CSS(`[data-hubform-step=who] [data-hubform-next]`)))
		a.waitFor(`document.querySelector('[data-hubform-step=where]').checkVisibility()`)
		// Moving on saved the draft; the file goes with the next save.
		a.waitFor(`document.querySelector('[data-hubform-form] [name=_hubformDraft]')?.value.length > 20`)
		a.do(chromedp.SetUploadFiles(chromedp.CSS(`[data-hubform-form] input[type=file][name=ticket]`), []string{ticket}))
		a.waitFor(`document.querySelector('li[data-state="done"] input[type="hidden"][name="ticket"]') !== null`)
		a.do(chromedp.Click(chromedp.CSS(`[data-hubform-save-panel] summary`)),
			chromedp.SendKeys(chromedp.CSS(`[name=_hubformDraftEmail]`), "ada@example.com"),
			chromedp.Click(chromedp.CSS(`[data-hubform-save-button]`)))
		a.waitFor(`document.querySelector('[data-hubform-saved]') !== null`)
		if got := a.eval(`document.querySelector('[data-hubform-saved]').textContent`); !strings.Contains(got, "ada@example.com") {
			t.Errorf("saved notice %q does not name the address", got)
		}

		link := linkTo(t, mp, "ada@example.com")
		if !strings.HasPrefix(link, base+"/f/acme/voyage?draft=") {
			t.Fatalf("link %q, want the form's page with a draft", link)
		}
		b := newDraftTab(t, base, true)
		b.do(chromedp.Navigate(link))
		b.waitFor(`typeof window.hubformScript !== 'undefined'`)
		if got := b.value("name"); got != "Ada" {
			t.Errorf("resumed name %q, want Ada", got)
		}
		b.waitFor(`document.querySelector('[data-hubform-step=where]').checkVisibility()`)
		if got := b.eval(`document.querySelector('[data-hubform-kept=ticket]')?.textContent ?? ''`); !strings.Contains(got, "ticket.pdf") {
			t.Fatalf("resumed form keeps %q, want the ticket", got)
		}
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=city]`), "Oslo"),
			chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		b.waitFor(`document.querySelector('[data-vendor-hubform-submitted]') !== null`)
		// The browser forgets the draft's token it kept.
		b.waitFor(`Object.keys(localStorage).filter((k) => k.startsWith('hubform-draft:')).length === 0`)

		wantOneSubmission(t, data, map[string]any{"name": "Ada", "city": "Oslo"}, "ticket.pdf")
		b.do(chromedp.Navigate(link))
		b.waitFor(`document.querySelector('[data-hubform-draft-gone]') !== null`)
	})

	t.Run("without JavaScript", func(t *testing.T) {
		a := newDraftTab(t, base, false)
		a.do(chromedp.Navigate(base + "/f/acme/voyage"))
		a.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=name]`), "Bo"),
			chromedp.SetUploadFiles(chromedp.CSS(`[data-hubform-form] input[type=file][name=ticket]`), []string{ticket}),
			chromedp.Click(chromedp.CSS(`[data-hubform-save-panel] summary`)),
			chromedp.SendKeys(chromedp.CSS(`[name=_hubformDraftEmail]`), "bo@example.com"))
		a.native(`[data-hubform-save-button]`)
		if got := a.eval(`document.querySelector('[data-hubform-saved]')?.textContent ?? ''`); !strings.Contains(got, "bo@example.com") {
			t.Errorf("saved notice %q", got)
		}

		link := linkTo(t, mp, "bo@example.com")
		b := newDraftTab(t, base, false)
		b.do(chromedp.Navigate(link))
		if got := b.value("name"); got != "Bo" {
			t.Errorf("resumed name %q, want Bo", got)
		}
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=city]`), "Bergen"))
		b.native(`[data-hubform-submit]`)
		if got := b.eval(`document.querySelector('[data-vendor-hubform-submitted]') ? 'sent' : document.body.innerText`); got != "sent" {
			t.Fatalf("after sending: %s", got)
		}
		b.do(chromedp.Navigate(link))
		if b.eval(`document.querySelector('[data-hubform-draft-gone]') ? 'gone' : ''`) != "gone" {
			t.Error("the link of a draft sent does not say it is gone")
		}
	})

	// A tab closed loses at most the step it was on: the browser kept the
	// draft saved when the visitor moved on, and opens it again.
	t.Run("a tab closed", func(t *testing.T) {
		browser := browsertest.New(t)
		a := &draftTab{t: t, tab: browsertest.NewTab(t, browser), base: base}
		a.do(chromedp.Navigate(base + "/f/acme/voyage"))
		a.waitFor(`typeof window.htmx !== 'undefined' && typeof window.hubformScript !== 'undefined'`)
		a.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=name]`), "Cy"),
			chromedp.Click(chromedp.CSS(`[data-hubform-step=who] [data-hubform-next]`)))
		a.waitFor(`document.querySelector('[data-hubform-form] [name=_hubformDraft]')?.value.length > 20`)
		a.do(chromedp.SendKeys(chromedp.CSS(`[data-hubform-form] [name=city]`), "Rome"))
		if err := chromedp.Cancel(a.tab); err != nil {
			t.Fatal(err)
		}

		b := &draftTab{t: t, tab: browsertest.NewTab(t, browser), base: base}
		b.do(chromedp.Navigate(base + "/f/acme/voyage"))
		// The script navigates to the draft: wait for that page.
		resumed := `new URLSearchParams(location.search).has('draft') && document.querySelector('[data-hubform-step=where]')?.checkVisibility() === true`
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			ctx, cancel := context.WithTimeout(b.tab, 5*time.Second)
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](resumed))
			cancel()
			if err == nil && ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the page did not open the draft the browser kept: %v", err)
			}
		}
		if got := b.value("name"); got != "Cy" {
			t.Errorf("reopened name %q, want Cy", got)
		}
		if got := b.value("city"); got != "" {
			t.Errorf("reopened city %q: the step was never saved", got)
		}
	})

	// Stopped, the hub stores the counts it holds. Two submissions, no
	// draft left.
	p.cmd.Process.Signal(syscall.SIGTERM)
	stopped := <-p.done
	p.done <- stopped // for the cleanup's wait
	if stopped != nil {
		t.Fatalf("hub stopped with %v; log:\n%s", stopped, p.log)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var drafts int
	db.Reader().QueryRow(`SELECT count(*) FROM drafts`).Scan(&drafts)
	if drafts != 1 {
		t.Errorf("%d drafts left, want the one never sent", drafts)
	}
	// Each visitor counted once, saving or not: a view, a start and the
	// second step each; the links opened again count a view each, of a
	// form started afresh, and so does the page reopened before the
	// browser turned to the draft it kept.
	funnel := func() string {
		counts, err := db.FunnelCounts(context.Background(), "acme", "voyage", time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, c := range counts {
			got[strings.TrimSuffix(c.Event+" "+c.Step, " ")] += c.N
		}
		return fmt.Sprint(got)
	}
	want := fmt.Sprint(map[string]int64{"view": 6, "start": 3, "step where": 3})
	if got := funnel(); got != want {
		t.Errorf("funnel %s, want %s", got, want)
	}
}

// wantOneSubmission checks the hub's one submission of acme/voyage.
func wantOneSubmission(t *testing.T, data string, want map[string]any, file string) {
	t.Helper()
	status, stdout, stderr := hubform(t, "submissions", "export", "--data", data)
	var subs []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &subs) != nil {
		t.Fatalf("export: status %d, %q %q", status, stdout, stderr)
	}
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1", len(subs))
	}
	var payload map[string]any
	json.Unmarshal(subs[0].Payload, &payload)
	for name, w := range want {
		if payload[name] != w {
			t.Errorf("stored %s = %#v, want %#v", name, payload[name], w)
		}
	}
	if a := subs[0].Attachments; len(a) != 1 || a[0].Filename != file {
		t.Errorf("attachments %+v, want %s", a, file)
	}
}
