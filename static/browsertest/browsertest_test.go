package browsertest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// TestWaitFor checks WaitFor right after navigations, where a wait in the
// execution context chromedp recorded last fails now and then because the
// new page's context is not recorded yet; and that it reports predicates
// that throw or stay false.
func TestWaitFor(t *testing.T) {
	browser := browsertest.New(t)
	// Each page becomes ready a moment after it has loaded.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><title>page</title><script>setTimeout(() => { window.ready = %q; }, 5);</script>`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)

	t.Run("after navigations", func(t *testing.T) {
		tab := browsertest.NewTab(t, browser)
		for i := range 40 {
			path := fmt.Sprintf("/page-%d", i)
			if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+path)); err != nil {
				t.Fatal(err)
			}
			browsertest.WaitFor(t, tab, 5*time.Second, fmt.Sprintf(`window.ready === %q`, path))
		}
	})

	t.Run("failures", func(t *testing.T) {
		tab := browsertest.NewTab(t, browser)
		if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")); err != nil {
			t.Fatal(err)
		}
		for js, want := range map[string]string{
			`window.ready === 'never'`:  "still false after 100ms",
			`window.missing.property`:   "TypeError",
			`document.title === 'page'`: "",
		} {
			if got := waitFailure(t, func(tb testing.TB) { browsertest.WaitFor(tb, tab, 100*time.Millisecond, js) }); want == "" && got != "" || !strings.Contains(got, want) {
				t.Errorf("WaitFor(%s) failed with %q, want %q", js, got, want)
			}
		}
	})
}

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the goroutine, as the real one does.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// waitFailure runs f with a fatalRecorder and returns what it failed with,
// or "" when it passed.
func waitFailure(t *testing.T, f func(testing.TB)) string {
	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.msg
}

// errorRecorder is a testing.TB whose Errorf records the message.
type errorRecorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msg = fmt.Sprintf(format, args...)
}

// TestLimit checks that a browser past its limit is stopped, so that a
// call that would wait on it for ever returns, and that the test is told.
func TestLimit(t *testing.T) {
	r := &errorRecorder{TB: t}
	tab := browsertest.New(r, browsertest.Limit(time.Second))
	// A promise that never settles, awaited without a deadline.
	_, err := chromedp.Run(tab, chromedp.Evaluate[bool](`new Promise(() => {})`, chromedp.EvalAwaitPromise))
	if err == nil {
		t.Fatal("waiting on a promise that never settles returned no error")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !strings.Contains(r.msg, "still in use after 1s") {
		t.Errorf("the test was told %q", r.msg)
	}
}
