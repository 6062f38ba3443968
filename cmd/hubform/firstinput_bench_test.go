package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/static/browsertest"
)

// firstInputProbe runs in every document before its own scripts: it
// records when the document was created (the browser's own share of a
// navigation ends there), when the form's first visible input enters the
// DOM, when the browser next renders a frame after that
// (requestAnimationFrame does not run while a stylesheet holds rendering),
// and the first contentful paint.
const firstInputProbe = `(() => {
  const t = window.__firstInput = {doc: performance.now()};
  const seen = () => {
    if (t.dom !== undefined || !document.querySelector('form input:not([type=hidden])')) return t.dom !== undefined;
    t.dom = performance.now();
    requestAnimationFrame(() => { t.frame = performance.now(); });
    return true;
  };
  new MutationObserver((_, o) => { if (seen()) o.disconnect(); }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') t.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
})()`

// A visit is one page load as the probe and the network saw it.
type visit struct {
	Doc, Dom, Frame, FCP float64 // ms since navigation start
	bytes                int64   // on the wire, headers included
	requests             int
}

// A tab loads pages and adds up what crossed the network for each.
type benchTab struct {
	ctx      context.Context
	mu       sync.Mutex
	bytes    int64
	requests int
	inFlight int // requests sent and not yet finished or failed
}

// newBenchTab opens a tab in a browser context of its own: its own cache,
// cookies and connections, as a first visitor has.
func newBenchTab(b *testing.B, browser context.Context) *benchTab {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	b.Cleanup(cancel)
	tab := &benchTab{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		tab.mu.Lock()
		defer tab.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			tab.requests++
			tab.inFlight++
		case *network.EventLoadingFinished:
			tab.bytes += int64(ev.EncodedDataLength)
			tab.inFlight--
		case *network.EventLoadingFailed:
			tab.inFlight--
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstInputProbe}); err != nil {
		b.Fatal(err)
	}
	return tab
}

// load opens url and waits until the probe has seen the input rendered,
// then until the page has loaded and no request is left, so that the bytes
// of a visit are all of them.
func (tab *benchTab) load(b *testing.B, url string) visit {
	ctx, cancel := context.WithTimeout(tab.ctx, 20*time.Second)
	defer cancel()
	// A visitor comes back later, not the moment the last page's scripts
	// have run: what the browser does after them (compiling, caching,
	// closing a tab) must not fall on the next visit.
	time.Sleep(settle)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	tab.mu.Lock()
	tab.bytes, tab.requests, tab.inFlight = 0, 0, 0
	tab.mu.Unlock()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	v, err := chromedp.Run(ctx, chromedp.Evaluate[visit](`new Promise((resolve) => {
  const t = window.__firstInput;
  const done = () => (t.frame !== undefined && t.fcp !== undefined ? resolve(t) : setTimeout(done, 5));
  done();
})`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("%s: the probe saw no input rendered: %v", url, err)
	}
	// Evaluated in the page's current document, not polled: a Poll runs in
	// the execution context chromedp last recorded, which may still be the
	// blank page's (see browsertest.WaitFor).
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((resolve) => document.readyState === 'complete'
  ? resolve(true) : addEventListener('load', () => resolve(true), {once: true}))`, chromedp.EvalAwaitPromise))
	for err == nil {
		tab.mu.Lock()
		idle := tab.inFlight <= 0
		tab.mu.Unlock()
		if idle {
			break
		}
		err = chromedp.Do(ctx, chromedp.Sleep(5*time.Millisecond))
	}
	if err != nil {
		b.Fatalf("%s: the page did not finish loading: %v", url, err)
	}
	tab.mu.Lock()
	v.bytes, v.requests = tab.bytes, tab.requests
	tab.mu.Unlock()
	return v
}

// settle is the pause before each visit.
const settle = 250 * time.Millisecond

// BenchmarkFirstInput loads two of the demo's pages in headless Chromium,
// the contact form and the survey, which asks every kind of question (its
// ranking loads hubform-ranking.js, its file field hubform-drop.js), each
// beside a static copy of it, the same page rendered once without what
// HubForm puts in the head (no stylesheet, no scripts) and served as plain
// bytes, and beside the same form's own page on a hub as hubform hub runs
// it (/f/demo/SLUG, package hosted). Each iteration loads each cold (a
// fresh browser context: empty cache, no connections) and then warm (the
// same context again). It reports the medians of the time until the form's
// first input is in the DOM and rendered, the ratios to the static page,
// and the bytes on the wire of a first and a repeat visit of the demo's
// page and of the hub's (metrics of the hub's page start with "hosted-").
// Goal: cold at most 1.2× the static page, warm the same or better.
func BenchmarkFirstInput(b *testing.B) {
	browser := browsertest.New(b)
	hub := hubtest.Start(b, exampleFormFiles(b))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	demo := httptest.NewServer(newDemoApp(demoConfig{hubURL: hub.URL, logger: logger}))
	defer demo.Close()
	pages := startPagesHub(b, logger)
	for _, slug := range []string{"contact", "survey"} {
		b.Run(slug, func(b *testing.B) { benchFirstInput(b, browser, hub.URL, demo.URL, pages, slug, logger) })
	}
}

// benchFirstInput measures the first input of the demo's form slug, on
// the demo at demoURL and on the hub serving pages at pagesURL.
func benchFirstInput(b *testing.B, browser context.Context, hubURL, demoURL, pagesURL, slug string, logger *slog.Logger) {
	hostedURL := pagesURL + "/f/demo/" + slug
	forms := handlers.New(handlers.Config{HubURL: hubURL, Logger: logger})
	p := forms.Props(context.Background(), "demo", slug, "")
	if p.InitialSchema == nil {
		b.Fatalf("the hub served no %s form", slug)
	}
	var plain bytes.Buffer
	if err := demoFormPage(p.InitialSchema.Title, templ.NopComponent, p, nil).Render(context.Background(), &plain); err != nil {
		b.Fatal(err)
	}
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Like the demo, no favicon.
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(plain.Bytes())
	}))
	defer static.Close()
	pageURL, staticURL := demoURL+"/f/demo/"+slug, static.URL+"/"

	var cold, warm, coldStatic, warmStatic, coldHosted, warmHosted []visit
	for b.Loop() {
		// Turning which goes first spreads the machine's noise evenly.
		order := []string{staticURL, pageURL, hostedURL}
		for range len(cold) % len(order) {
			order = append(order[1:], order[0])
		}
		for _, url := range order {
			tab := newBenchTab(b, browser)
			c, w := tab.load(b, url), tab.load(b, url)
			switch url {
			case pageURL:
				cold, warm = append(cold, c), append(warm, w)
			case hostedURL:
				coldHosted, warmHosted = append(coldHosted, c), append(warmHosted, w)
			default:
				coldStatic, warmStatic = append(coldStatic, c), append(warmStatic, w)
			}
			chromedp.Cancel(tab.ctx)
		}
	}
	frame := func(v visit) float64 { return v.Frame }
	dom := func(v visit) float64 { return v.Dom }
	wire := func(v visit) float64 { return float64(v.bytes) }
	report := func(name string, page, static []visit) {
		f, fs := median(page, frame), median(static, frame)
		b.ReportMetric(f, name+"-ms")
		b.ReportMetric(fs, name+"-static-ms")
		b.ReportMetric(f/fs, name+"-x-of-static")
		d, ds := median(page, dom), median(static, dom)
		b.ReportMetric(d, name+"-dom-ms")
		b.ReportMetric(ds, name+"-dom-static-ms")
		b.ReportMetric(d/ds, name+"-dom-x-of-static")
		// From the document's creation on, without the navigation before
		// it, which is the browser's and the noisiest part.
		afterDoc := func(v visit) float64 { return v.Dom - v.Doc }
		a, as := median(page, afterDoc), median(static, afterDoc)
		b.ReportMetric(a, name+"-dom-after-doc-ms")
		b.ReportMetric(as, name+"-dom-after-doc-static-ms")
		b.ReportMetric(a/as, name+"-dom-after-doc-x-of-static")
	}
	report("cold", cold, coldStatic)
	report("warm", warm, warmStatic)
	report("hosted-cold", coldHosted, coldStatic)
	report("hosted-warm", warmHosted, warmStatic)
	b.ReportMetric(median(cold, wire), "first-visit-B")
	b.ReportMetric(median(warm, wire), "repeat-visit-B")
	b.ReportMetric(float64(cold[0].requests), "first-visit-requests")
	b.ReportMetric(float64(warm[0].requests), "repeat-visit-requests")
	b.ReportMetric(median(coldHosted, wire), "hosted-first-visit-B")
	b.ReportMetric(median(warmHosted, wire), "hosted-repeat-visit-B")
	b.ReportMetric(float64(coldHosted[0].requests), "hosted-first-visit-requests")
	b.ReportMetric(float64(warmHosted[0].requests), "hosted-repeat-visit-requests")
	if testing.Verbose() {
		for i := range cold {
			fmt.Printf("cold %+v static %+v hosted %+v warm %+v static %+v hosted %+v\n",
				cold[i], coldStatic[i], coldHosted[i], warm[i], warmStatic[i], warmHosted[i])
		}
	}
}

// startPagesHub runs a hub as hubform hub opens it, serving the example
// forms and their pages on a loopback port, until the benchmark ends, and
// returns its address.
func startPagesHub(b *testing.B, logger *slog.Logger) string {
	b.Helper()
	data := b.TempDir()
	forms := filepath.Join(data, "forms")
	if err := writeExampleForms(forms, captchaKeys{}, "http://127.0.0.1:8080"); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h, err := hubserver.Open(ctx, hubserver.Config{
		Addr: "127.0.0.1:0", Data: data, Forms: forms, MaxBody: protocol.DefaultMaxBodyBytes,
		UploadTTL: 24 * time.Hour, SweepInterval: time.Hour, ShutdownGrace: time.Second,
	}, logger)
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx) }()
	b.Cleanup(func() {
		cancel()
		<-served
		h.Close()
	})
	return strings.TrimSuffix(h.URL, "/v1")
}

func median(vs []visit, f func(visit) float64) float64 {
	xs := make([]float64, len(vs))
	for i, v := range vs {
		xs[i] = f(v)
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	} else {
		return xs[n/2]
	}
}
