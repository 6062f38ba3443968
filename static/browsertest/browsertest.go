// Package browsertest starts a headless Chromium for tests, driven with
// chromedp.
//
// Tests that need a browser call New once and open a tab per test with
// NewTab:
//
//	func TestPage(t *testing.T) {
//		browser := browsertest.New(t)
//		t.Run("one", func(t *testing.T) {
//			tab := browsertest.NewTab(t, browser)
//			if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
//				t.Fatal(err)
//			}
//			browsertest.WaitFor(t, tab, 5*time.Second, `document.querySelector('form') !== null`)
//		})
//	}
//
// Wait with WaitFor rather than chromedp.Poll, which can fail right after
// a navigation (see WaitFor).
//
// The browser is Debian's Chromium at ExecPath. When it is missing the test
// is skipped, unless the environment variable HUBFORM_BROWSER_TESTS is "1",
// which makes the browser required and its absence a failure. With -short
// the browser tests are skipped: make test runs them once, in its full
// pass, and leaves them out of its pass under the race detector.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// ExecPath is the browser New starts.
const ExecPath = "/usr/bin/chromium"

// RequireEnv is the environment variable that, set to "1", turns a missing
// browser from a skipped test into a failed one.
const RequireEnv = "HUBFORM_BROWSER_TESTS"

// An Option changes how New starts the browser.
type Option func(*config)

type config struct {
	width, height int
	limit         time.Duration
}

// DefaultLimit is how long a browser New started may run before it is
// stopped (see Limit).
const DefaultLimit = 5 * time.Minute

// Limit sets how long the browser may run, from New to the end of the
// test and its subtests. Past it the test fails and the browser is
// stopped, which ends every chromedp call still waiting on it: a page or
// a frame that never answers fails its test, not the whole package at go
// test's timeout.
func Limit(d time.Duration) Option {
	return func(c *config) { c.limit = d }
}

// WindowSize sets the size of the browser's window, and so the viewport of
// its tabs, in CSS pixels. The default is 1280 by 900.
func WindowSize(width, height int) Option {
	return func(c *config) { c.width, c.height = width, height }
}

// Required reports whether the environment asks for the browser tests to
// run, so that what they need must be present.
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// New starts a headless Chromium with a fresh profile and returns a chromedp
// context of its first tab. The browser is ended when the test and its
// subtests have finished. New skips the test when the browser is missing,
// or fails it when Required reports true.
func New(t testing.TB, opts ...Option) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: skipped with -short")
	}
	if _, err := os.Stat(ExecPath); err != nil {
		if Required() {
			t.Fatalf("%s=1 but %s is missing: run make browser", RequireEnv, ExecPath)
		}
		t.Skipf("%s not found; make test installs it (or set %s=1 to require it)", ExecPath, RequireEnv)
	}
	cfg := config{width: 1280, height: 900, limit: DefaultLimit}
	for _, o := range opts {
		o(&cfg)
	}
	allocOpts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ExecPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(cfg.width, cfg.height),
		// Tests run without a network; without these Chromium keeps trying
		// to reach its own services.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocOpts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	var mu sync.Mutex
	ended := false
	watchdog := time.AfterFunc(cfg.limit, func() {
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			t.Errorf("the browser was still in use after %v: stopped, so that what waits on it fails", cfg.limit)
			cancelAlloc()
		}
	})
	t.Cleanup(func() {
		mu.Lock()
		ended = true
		mu.Unlock()
		watchdog.Stop()
		cancel()
		cancelAlloc()
	})
	// The first action starts the browser. It runs without a deadline: a
	// context that ends would end the browser with it.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", ExecPath, err)
	}
	return ctx
}

// NewTab opens a new tab in the browser of a context that New returned,
// and closes it when the test has finished.
func NewTab(t testing.TB, browser context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tab
}

// Eval evaluates the JavaScript expression js in the tab of ctx and returns
// its value as a T, failing the test when it throws, or when it takes longer
// than timeout.
func Eval[T any](t testing.TB, ctx context.Context, timeout time.Duration, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// HTMXIdle is a JavaScript expression, for WaitFor, that is true when htmx
// has no request in flight and no swap or settle under way. Content htmx
// has just swapped in is in the page before htmx has processed it: for the
// settle delay (20 ms) its own hx- attributes do nothing, so a test that
// acts on new content as soon as it appears may lose the event.
const HTMXIdle = `!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`

// WaitFor waits until the JavaScript expression js is true in the page of
// ctx, checking it every 20 ms, and fails the test when it throws, or when
// it is still false after timeout.
//
// It runs as one Runtime.evaluate in the page's current document, unlike
// chromedp.Poll. Poll runs its predicate in the execution context chromedp
// last recorded for the frame, and chromedp records a new page's context
// on a goroutine of its own, which may not have caught up when Navigate
// returns: a Poll right after a navigation can name the previous page's
// context, which the browser has discarded ("Cannot find context with
// specified id"). A navigation while WaitFor waits fails the test.
func WaitFor(t testing.TB, ctx context.Context, timeout time.Duration, js string) {
	t.Helper()
	// The page keeps the time and stops checking by itself; the context's
	// deadline, later, is for a browser that does not answer at all.
	ctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
	defer cancel()
	wait := fmt.Sprintf(`new Promise((resolve, reject) => {
	  const deadline = Date.now() + %d;
	  const check = () => {
	    try {
	      if (%s) return resolve(true);
	    } catch (err) {
	      return reject(err);
	    }
	    if (Date.now() > deadline) return resolve(false);
	    setTimeout(check, 20);
	  };
	  check();
	})`, timeout.Milliseconds(), "(\n"+js+"\n)")
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](wait, chromedp.EvalAwaitPromise))
	switch {
	case err != nil:
		t.Fatalf("waiting for %s: %v", js, err)
	case !ok:
		t.Fatalf("waiting for %s: still false after %v", js, timeout)
	}
}

// EmulateNetwork applies network conditions to the requests of the tab of
// ctx from now on: those whose URL matches c.URLPattern, or all when it is
// empty, are slowed, delayed or cut off as c says. It fails the test when
// the browser refuses.
func EmulateNetwork(t testing.TB, ctx context.Context, c network.Conditions) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("enabling the network domain: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{&c},
	}); err != nil {
		t.Fatalf("emulating network conditions: %v", err)
	}
}

// WaitScripts waits until the page of ctx has loaded and run htmx and
// hubform's script, which a hubform page loads after its first paint: a
// click before then posts the form the way a browser without scripts does.
func WaitScripts(t testing.TB, ctx context.Context) {
	t.Helper()
	WaitFor(t, ctx, 10*time.Second, `document.readyState === 'complete' && !!window.htmx && !!window.hubformScript`)
}
