package handlers_test

import (
	"context"
	"crypto/sha256"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/static/browsertest"
)

// bigFilesForm takes several files of up to 2 GiB.
const bigFilesForm = `{
  "fields": [{"name": "files", "type": "file", "label": "Files", "multiple": true, "required": true}],
  "steps": [{"id": "s", "fields": ["files"]}],
  "hub": {"maxFileSize": 2147483648}
}`

// uploadBench is an app and a hub, in this process, and a browser that
// sends files through the app's page of acme/big.
type uploadBench struct {
	b        *testing.B
	browser  context.Context
	hub      *hubtest.Hub
	app      *httptest.Server
	received atomic.Int64 // bytes of request bodies the app read
	// read returns a stored file's body.
	read func(key string) (io.ReadCloser, error)
}

// newUploadBench starts a hub keeping files in its local store, or in a
// versitygw bucket when bucket is set, and an app.
func newUploadBench(b *testing.B, browser context.Context, bucket bool, configure ...func(*protocol.Config)) *uploadBench {
	u := &uploadBench{b: b, browser: browser}
	if bucket {
		bucketURL := s3test.URL(b)
		s3test.AllowBrowsers(b, bucketURL)
		files, err := s3blob.Open(context.Background(), bucketURL)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { files.Close() })
		configure = append(configure, func(cfg *protocol.Config) { cfg.Blobs, cfg.Uploads = files, nil })
		u.read = func(key string) (io.ReadCloser, error) { return files.NewReader(context.Background(), key) }
	}
	u.hub = hubtest.Start(b, map[string]string{"acme/big": bigFilesForm}, configure...)
	if u.read == nil {
		u.read = func(key string) (io.ReadCloser, error) { return u.hub.Blobs.NewReader(context.Background(), key) }
	}
	forms := handlers.New(handlers.Config{HubURL: u.hub.URL, Logger: quiet, MaxPostBytes: 4 << 30, SubmitTimeout: 10 * time.Minute})
	e := echo.New()
	e.Use(countingBodies(&u.received))
	forms.Mount(e)
	e.GET("/page", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "big")
		return handlers.Page(handlers.PageProps{Title: "Files", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	u.app = httptest.NewServer(e)
	b.Cleanup(u.app.Close)
	return u
}

// send opens the page, with or without JavaScript, chooses paths and sends
// the form, and returns how long that took from the choice to the
// thank-you panel, and the bytes the app read meanwhile.
func (u *uploadBench) send(js bool, paths ...string) (time.Duration, int64) {
	b := u.b
	tab := browsertest.NewTab(b, u.browser)
	ctx, cancel := context.WithTimeout(tab, 10*time.Minute)
	defer cancel()
	if !js {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			b.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.app.URL+"/page"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`))); err != nil {
		b.Fatal(err)
	}
	if js {
		browsertest.WaitFor(b, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
	}
	before := u.received.Load()
	began := time.Now()
	actions := []chromedp.Action[chromedp.Void]{chromedp.SetUploadFiles(chromedp.ID("hubform-acme-big-files"), paths)}
	if js {
		// The post goes once the uploads are done.
		actions = append(actions, chromedp.WaitVisible(chromedp.CSS(`#hubform-acme-big-files-uploads li`)))
	}
	actions = append(actions, chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.Fatal(err)
	}
	return time.Since(began), u.received.Load() - before
}

// checkStored fails b unless the last submission holds the files of paths,
// byte for byte (by SHA-256).
func (u *uploadBench) checkStored(paths ...string) {
	b := u.b
	subs := u.hub.Submissions()
	last := subs[len(subs)-1]
	if len(last.Attachments) != len(paths) {
		b.Fatalf("stored %d files, want %d", len(last.Attachments), len(paths))
	}
	for i, a := range last.Attachments {
		r, err := u.read(a.Key)
		if err != nil {
			b.Fatal(err)
		}
		if got, want := digest(b, r), fileDigest(b, paths[i]); got != want {
			b.Errorf("%s: stored SHA-256 %x, chosen %x", a.Filename, got, want)
		}
	}
}

func digest(b *testing.B, r io.ReadCloser) [32]byte {
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		b.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

func fileDigest(b *testing.B, path string) [32]byte {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	return digest(b, f)
}

// sparseRandomFile writes size bytes of random data, a MiB repeated, to a
// file named name in dir: as costly to send as any, cheap to make.
func sparseRandomFile(b *testing.B, dir, name string, size int64) string {
	_, block := randomFile(b, b.TempDir(), "block", 1<<20)
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for written := int64(0); written < size; written += int64(len(block)) {
		if _, err := f.Write(block[:min(int64(len(block)), size-written)]); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkBrowserUploads sends files from headless Chromium through an
// app's form to a hub, both in this process: what the app reads for a 100
// MiB file with JavaScript, four files of 25 MiB with JavaScript against
// the post without it, and a file of 1 GiB to the hub's local store and to
// versitygw, with the peak of the process's heap (app and hub together)
// and the stored file's SHA-256 checked, and how much of a file of 200 MiB
// is sent again when every connection to the storage is cut at its half.
// Run it with -benchtime 1x.
func BenchmarkBrowserUploads(b *testing.B) {
	browser := browsertest.New(b)
	dir := b.TempDir()
	hundred := sparseRandomFile(b, dir, "hundred.bin", 100<<20)
	var quarters []string
	for _, name := range []string{"q1.bin", "q2.bin", "q3.bin", "q4.bin"} {
		quarters = append(quarters, sparseRandomFile(b, dir, name, 25<<20))
	}
	gib := sparseRandomFile(b, dir, "gib.bin", 1<<30)

	b.Run("100MiB", func(b *testing.B) {
		u := newUploadBench(b, browser, false)
		var took time.Duration
		var read int64
		for b.Loop() {
			took, read = u.send(true, hundred)
		}
		u.checkStored(hundred)
		b.ReportMetric(float64(read), "app-read-bytes")
		b.ReportMetric(took.Seconds(), "s")
	})

	b.Run("4x25MiB", func(b *testing.B) {
		u := newUploadBench(b, browser, false)
		var direct, posted time.Duration
		for b.Loop() {
			direct, _ = u.send(true, quarters...)
			u.checkStored(quarters...)
			posted, _ = u.send(false, quarters...)
			u.checkStored(quarters...)
		}
		b.ReportMetric(direct.Seconds(), "js-s")
		b.ReportMetric(posted.Seconds(), "post-s")
		b.ReportMetric(direct.Seconds()/posted.Seconds(), "js/post")
	})

	b.Run("resume-200MiB", func(b *testing.B) {
		const size = 200 << 20
		file := sparseRandomFile(b, dir, "resume.bin", size)
		var resent int64
		for b.Loop() {
			cut := &cutter{length: 1500 * time.Millisecond}
			u := newUploadBench(b, browser, false, cut.configure)
			cut.after.Store(size / 2)
			u.send(true, file)
			u.checkStored(file)
			if cut.cuts.Load() != 1 {
				b.Fatal("the connections were never cut")
			}
			resent = cut.received.Load() - size
		}
		b.ReportMetric(100*float64(resent)/size, "resent-%")
	})

	for _, bucket := range []bool{false, true} {
		name := map[bool]string{false: "1GiB-local", true: "1GiB-versitygw"}[bucket]
		b.Run(name, func(b *testing.B) {
			u := newUploadBench(b, browser, bucket)
			var took time.Duration
			var peak uint64
			for b.Loop() {
				heap := testkit.WatchHeap()
				took, _ = u.send(true, gib)
				peak = heap.End()
			}
			u.checkStored(gib)
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(1<<30)/(1<<20)/took.Seconds(), "MiB/s")
		})
	}
}
