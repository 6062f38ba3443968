package browsertest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
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
