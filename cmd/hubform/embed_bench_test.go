package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// embedReadyProbe records, in a site's page, when a form that embed.js
// put in it says it is ready: the form's page in the frame has parsed,
// its first input in the DOM, and run its frame script.
const embedReadyProbe = `document.addEventListener('hubform:ready', () => { window.__embedReady = performance.now(); }, {once: true})`

// embedHostPage is a page of a site: a heading, some text and, with the
// script, the contact form inline. %[1]s is the hub's address, %[2]s the
// script's tag or nothing.
const embedHostPage = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A site</title>%[2]s</head>
<body><main><h1>Write to us</h1><p>We answer within a day.</p>
<div data-hubform="demo/contact"><a href="%[1]s/f/demo/contact">Contact us</a></div></main></body></html>`

// BenchmarkEmbed measures what embed.js costs a site: the first paint of
// a site's page with the script and the form inline, against the same
// page without the script (the link alone), and the time until the form
// in the frame is ready, against the time until the first input of the
// form's page opened directly is in the DOM. The site is served on
// another origin (localhost) than the hub (127.0.0.1), so that the frame
// runs in a process of its own, as on the web. Each iteration loads each
// cold, in a fresh browser context, and then warm.
func BenchmarkEmbed(b *testing.B) {
	browser := browsertest.New(b)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := startPagesHub(b, logger)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		script := ""
		switch r.URL.Path {
		case "/embed.html":
			script = `<script async src="` + hub + `/embed.js"></script>`
		case "/plain.html":
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, embedHostPage, hub, script)
	}))
	defer site.Close()
	siteURL := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	plainURL, embedURL, directURL := siteURL+"/plain.html", siteURL+"/embed.html", hub+"/f/demo/contact"

	var plainCold, plainWarm, embedCold, embedWarm, directCold, directWarm []visit
	for b.Loop() {
		order := []string{plainURL, embedURL, directURL}
		for range len(plainCold) % len(order) {
			order = append(order[1:], order[0])
		}
		for _, url := range order {
			tab := newBenchTab(b, browser)
			if _, err := chromedp.Call(tab.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: embedReadyProbe}); err != nil {
				b.Fatal(err)
			}
			switch url {
			case directURL:
				c, w := tab.load(b, url), tab.load(b, url)
				directCold, directWarm = append(directCold, c), append(directWarm, w)
			case plainURL:
				c, w := loadSite(b, tab, url, false), loadSite(b, tab, url, false)
				plainCold, plainWarm = append(plainCold, c), append(plainWarm, w)
			default:
				c, w := loadSite(b, tab, url, true), loadSite(b, tab, url, true)
				embedCold, embedWarm = append(embedCold, c), append(embedWarm, w)
			}
			chromedp.Cancel(tab.ctx)
		}
	}
	fcp := func(v visit) float64 { return v.FCP }
	dom := func(v visit) float64 { return v.Dom }
	wire := func(v visit) float64 { return float64(v.bytes) }
	for _, r := range []struct {
		name                 string
		plain, embed, direct []visit
	}{{"cold", plainCold, embedCold, directCold}, {"warm", plainWarm, embedWarm, directWarm}} {
		p, e := median(r.plain, fcp), median(r.embed, fcp)
		b.ReportMetric(p, r.name+"-site-fcp-ms")
		b.ReportMetric(e, r.name+"-site-fcp-embed-ms")
		b.ReportMetric(e/p, r.name+"-site-fcp-x-of-plain")
		f, d := median(r.embed, dom), median(r.direct, dom)
		b.ReportMetric(f, r.name+"-frame-ready-ms")
		b.ReportMetric(d, r.name+"-direct-input-ms")
		b.ReportMetric(f/d, r.name+"-frame-x-of-direct")
		b.ReportMetric(median(r.embed, wire)-median(r.plain, wire), r.name+"-site-extra-B")
	}
}

// loadSite opens a site's page and returns its first contentful paint
// and, with the form embedded, the time it said it was ready (as Dom),
// and the bytes the page itself loaded (not its frame's, which run in
// another process).
func loadSite(b *testing.B, tab *benchTab, url string, embedded bool) visit {
	ctx, cancel := context.WithTimeout(tab.ctx, 20*time.Second)
	defer cancel()
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
	v, err := chromedp.Run(ctx, chromedp.Evaluate[visit](fmt.Sprintf(`new Promise((resolve) => {
  const t = window.__firstInput;
  const done = () => (t.fcp !== undefined && (!%t || window.__embedReady !== undefined) && document.readyState === 'complete'
    ? resolve({doc: t.doc, fcp: t.fcp, dom: window.__embedReady || 0}) : setTimeout(done, 5));
  done();
})`, embedded), chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("%s: %v", url, err)
	}
	// The frame's document is asked for here and answered in its own
	// process: it never finishes in this tab's count.
	for err == nil && !embedded {
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
