package console_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserSummary opens a poll's Summary tab from its Submissions tab in
// headless Chromium, after answers sent through the protocol: axe-core
// finds nothing serious in light and dark, at 1280 and at 375 pixels, where
// no card scrolls sideways; a period link narrows it to none, and says so.
func TestBrowserSummary(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	forms := formsDir(t, poll)
	if err := os.WriteFile(filepath.Join(forms, "acme", "quiet.json"), []byte(poll), 0o644); err != nil {
		t.Fatal(err)
	}
	h := startHub(t, hubserver.Config{Forms: forms})
	addUser(t, h, "jane@example.com", "correct horse battery")
	c := &hubclient.Client{HubURL: h.URL}
	for _, p := range []map[string]any{
		{"topic": "sales", "tags": []string{"a", "b"}, "ok": true, "stars": 5, "score": 10, "order": []string{"x", "y", "z"}, "note": "Lovely, and quick to answer."},
		{"topic": "support", "tags": []string{"b"}, "stars": 3, "score": 6, "order": []string{"y", "z", "x"}, "note": "A long answer without spaces: " + strings.Repeat("x", 120)},
		{"topic": "sales", "ok": true, "stars": 4, "score": 9},
	} {
		if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{Payload: p}); err != nil {
			t.Fatal(err)
		}
	}
	con := newConsoleTab(t, browser, h)
	tab, do := con.tab, con.do
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms table")))
	do(chromedp.Navigate(strings.TrimSuffix(h.URL, "/v1")+"/console/forms/acme/contact/submissions"), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	do(chromedp.Click(chromedp.CSS(`.console-tabs a[href="/console/forms/acme/contact/summary"]`)), chromedp.WaitVisible(chromedp.CSS("#summary")))
	if got := con.text(`[data-field="topic"]`); !strings.Contains(got, "Sales team") || !strings.Contains(got, "2 · 67%") {
		t.Errorf("the topic's card reads %q", got)
	}
	if got := con.text(`[data-figure="nps"]`); got != "+33" {
		t.Errorf("the NPS reads %q, want +33", got)
	}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, tab, scheme)
		for _, width := range []int64{1280, 375} {
			do(chromedp.EmulateViewport(width, 900))
			browsertest.CheckAxe(t, tab, axe, "the summary, "+scheme)
			if width == 375 {
				if got := browsertest.Eval[string](t, tab, 5*time.Second, `String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
					t.Errorf("the summary at 375 pixels, %s, scrolls sideways by %s pixels", scheme, got)
				}
			}
			name := "console-summary-" + scheme + "-" + map[int64]string{1280: "wide", 375: "phone"}[width]
			con.screenshot(name)
			do(chromedp.ScrollIntoView(chromedp.CSS(`[data-field="score"]`)))
			con.screenshot(name + "-nps")
			do(chromedp.ScrollIntoView(chromedp.CSS(`[data-field="note"]`)))
			con.screenshot(name + "-texts")
			do(chromedp.ScrollIntoView(chromedp.CSS(`h1`)))
		}
	}
	browsertest.ColorScheme(t, tab, "")
	do(chromedp.EmulateViewport(1280, 900))

	// A form nobody answered says so, and where to share it from.
	do(chromedp.Navigate(strings.TrimSuffix(h.URL, "/v1")+"/console/forms/acme/quiet/summary"), chromedp.WaitVisible(chromedp.CSS("#summary-empty")))
	if got := con.text("#summary-empty"); !strings.Contains(got, "No answers yet") || browsertest.Eval[int](t, tab, 5*time.Second, `document.querySelectorAll('#summary-empty a[href$="/share"]').length`) != 1 {
		t.Errorf("the summary of a form nobody answered reads %q", got)
	}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, tab, scheme)
		for _, width := range []int64{1280, 375} {
			do(chromedp.EmulateViewport(width, 900))
			browsertest.CheckAxe(t, tab, axe, "the summary of no answers, "+scheme)
			con.screenshot("console-summary-empty-" + scheme + "-" + map[int64]string{1280: "wide", 375: "phone"}[width])
		}
	}
	browsertest.ColorScheme(t, tab, "")
	do(chromedp.EmulateViewport(1280, 900))
	do(chromedp.Navigate(strings.TrimSuffix(h.URL, "/v1")+"/console/forms/acme/contact/summary"), chromedp.WaitVisible(chromedp.CSS("#summary")))

	// The links change the period without JavaScript's help.
	do(chromedp.Click(chromedp.CSS(`a[href$="summary?period=7d"]`)), chromedp.WaitVisible(chromedp.CSS(`a[aria-current="true"][href$="period=7d"]`)))
	if got := con.text("#summary-range"); !strings.Contains(got, "3 submissions") {
		t.Errorf("the last 7 days read %q", got)
	}
}
