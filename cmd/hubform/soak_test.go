package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// soakForm is acme/contact with files, two steps (so that the hub keeps
// drafts) and a webhook to url.
func soakForm(t *testing.T, url string) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	form := `{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Name", "required": true},
		{"name": "message", "type": "textarea", "label": "Message"}, {"name": "files", "type": "file", "label": "Files", "multiple": true}],
		"steps": [{"id": "who", "fields": ["name"]}, {"id": "what", "fields": ["message", "files"]}],
		"hub": {"minSeconds": 0, "maxFileSize": 134217728, "webhooks": [{"url": "` + url + `", "secret": "` + webhookSecret + `"}]}}`
	if err := os.WriteFile(filepath.Join(dir, "acme", "contact.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// soakReceiver counts the webhook deliveries of each submission.
type soakReceiver struct {
	mu   sync.Mutex
	subs map[string]int
}

func (r *soakReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var ev delivery.Event
	json.NewDecoder(req.Body).Decode(&ev)
	r.mu.Lock()
	r.subs[ev.Data.SubmissionID]++
	r.mu.Unlock()
}

// soakTimes are the latencies of one kind of request in one window.
type soakTimes struct {
	ok, failed int
	took       []time.Duration
}

func (s *soakTimes) quantile(q float64) time.Duration {
	if len(s.took) == 0 {
		return 0
	}
	slices.Sort(s.took)
	return s.took[min(len(s.took)-1, int(q*float64(len(s.took))))]
}

// soakLoad runs the soak's clients and keeps their figures by window.
type soakLoad struct {
	mu      sync.Mutex
	start   time.Time
	window  time.Duration
	windows []map[string]*soakTimes
	acked   []string
}

// record notes a request of kind that began at began.
func (l *soakLoad) record(kind string, began time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := int(began.Sub(l.start) / l.window)
	for len(l.windows) <= i {
		l.windows = append(l.windows, map[string]*soakTimes{})
	}
	s := l.windows[i][kind]
	if s == nil {
		s = &soakTimes{}
		l.windows[i][kind] = s
	}
	if err != nil {
		s.failed++
		return
	}
	s.ok++
	s.took = append(s.took, time.Since(began))
}

// TestSoak runs a hub for HUBFORM_SOAK (make soak: 10m) under mixed load
// from several clients (submissions with and without files, a file in
// parts, drafts, console pages, searches, exports, webhooks to a local
// receiver) and reports, a minute at a time, each kind's rate, p50 and
// p99, and the hub's RSS, goroutines and open files. After the first
// minute none of these grows by more than 10%; every submission
// acknowledged is stored and delivered once.
func TestSoak(t *testing.T) {
	d := os.Getenv("HUBFORM_SOAK")
	if d == "" {
		t.Skip("make soak runs it, for HUBFORM_SOAK")
	}
	length, err := time.ParseDuration(d)
	if err != nil || length < 2*time.Minute {
		t.Fatalf("HUBFORM_SOAK=%q: want a duration of 2m or more", d)
	}
	receiver := &soakReceiver{subs: map[string]int{}}
	hook := httptest.NewServer(receiver)
	defer hook.Close()
	data := t.TempDir()
	addUser(t, "jane@example.com", "correct horse battery", "--data", data)
	db, err := sqlite.Open(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	token := accounts.NewToken()
	if err := db.CreateToken(context.Background(), accounts.Token{Name: "soak", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Scope: accounts.ScopeMetrics}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	p := startHub(t, soakForm(t, hook.URL), data, "--webhook-allow-nets", "127.0.0.0/8")
	base := strings.TrimSuffix(p.url, "/v1")
	ctx, stop := context.WithTimeout(context.Background(), length)
	defer stop()
	load := &soakLoad{start: time.Now(), window: time.Minute}
	c := &hubclient.Client{HubURL: p.url, Timeout: time.Minute}

	var wg sync.WaitGroup
	every := func(kind string, pause time.Duration, do func(i int) error) {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				began := time.Now()
				err := do(i)
				if ctx.Err() == nil {
					load.record(kind, began, err)
				}
				select {
				case <-ctx.Done():
				case <-time.After(pause):
				}
			}
		})
	}
	submit := func(name string, atts ...hubclient.Attachment) error {
		res, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{
			Payload: map[string]any{"name": name, "message": "soak word" + strconv.Itoa(len(name))}, Attachments: atts})
		if err == nil {
			load.mu.Lock()
			load.acked = append(load.acked, res.SubmissionID)
			load.mu.Unlock()
		}
		return err
	}
	file := func(name string, size int64) hubclient.File {
		return hubclient.NewFile(name, "application/octet-stream", size, func() (io.ReadCloser, error) {
			return io.NopCloser(io.LimitReader(zeros{}, size)), nil
		})
	}
	for w := range 4 {
		every("submit", 20*time.Millisecond, func(i int) error { return submit(fmt.Sprintf("client %d #%d", w, i)) })
	}
	every("submit+file", 200*time.Millisecond, func(i int) error {
		a, err := c.Upload(ctx, "acme", "contact", file("f.bin", 256<<10))
		if err != nil {
			return err
		}
		a.Field = "files"
		return submit(fmt.Sprintf("with a file #%d", i), a)
	})
	every("file in parts", 20*time.Second, func(i int) error {
		const size = 64 << 20
		up, err := c.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: "big.bin", Size: size, MIME: "application/octet-stream", Parts: true})
		if err != nil {
			return err
		}
		if up.Parts == nil {
			return fmt.Errorf("the hub offered no parts for %d bytes", size)
		}
		var parts []hubclient.UploadedPart
		for n, u := range up.Parts.URLs {
			partSize := min(up.Parts.PartSize, size-int64(n)*up.Parts.PartSize)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPut, u, io.LimitReader(zeros{}, partSize))
			req.ContentLength = partSize
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("part %d: %s", n+1, res.Status)
			}
			parts = append(parts, hubclient.UploadedPart{Number: n + 1, ETag: res.Header.Get("ETag")})
		}
		if err := c.CompleteUpload(ctx, "acme", "contact", hubclient.CompleteUploadRequest{Key: up.Key, UploadID: up.Parts.UploadID, Parts: parts}); err != nil {
			return err
		}
		return submit(fmt.Sprintf("with a file in parts #%d", i), hubclient.Attachment{Key: up.Key, Filename: "big.bin", Size: size, MIME: "application/octet-stream", Field: "files"})
	})
	every("draft", 500*time.Millisecond, func(i int) error {
		_, err := c.SaveDraft(ctx, "acme", "contact", hubclient.DraftRequest{Payload: map[string]any{"name": fmt.Sprintf("draft %d", i)}, Step: "what"})
		return err
	})
	console := soakConsole(t, base)
	for kind, path := range map[string]string{
		"console home": "/console", "inbox": "/console/forms/acme/contact/submissions",
		"search": "/console/forms/acme/contact/submissions?q=word17", "export": "/console/forms/acme/contact/export/csv",
	} {
		pause := time.Second
		if kind == "export" {
			pause = 15 * time.Second
		}
		every(kind, pause, func(int) error {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
			res, err := console.Do(req)
			if err != nil {
				return err
			}
			defer res.Body.Close()
			io.Copy(io.Discard, res.Body)
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("%s: %s", path, res.Status)
			}
			return nil
		})
	}

	// The hub's process, a minute at a time.
	type sample struct {
		rss, goroutines, files float64
	}
	var samples []sample
	read := func() sample {
		var s sample
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
		if m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status); m != nil {
			s.rss, _ = strconv.ParseFloat(string(m[1]), 64)
		}
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid))
		s.files = float64(len(fds))
		req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if res, err := http.DefaultClient.Do(req); err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if m := regexp.MustCompile(`(?m)^go_goroutines (\S+)$`).FindSubmatch(body); m != nil {
				s.goroutines, _ = strconv.ParseFloat(string(m[1]), 64)
			}
		}
		return s
	}
	tick := time.NewTicker(load.window)
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
			samples = append(samples, read())
		}
	}
	tick.Stop()
	wg.Wait()
	if len(samples) < len(load.windows) {
		samples = append(samples, read())
	}

	// The report, a line a minute.
	kinds := []string{"submit", "submit+file", "file in parts", "draft", "console home", "inbox", "search", "export"}
	var report strings.Builder
	fmt.Fprintf(&report, "minute | %s | RSS MB | goroutines | open files\n", strings.Join(kinds, " | "))
	load.mu.Lock()
	for i, s := range samples {
		fmt.Fprintf(&report, "%d", i+1)
		for _, k := range kinds {
			if i < len(load.windows) && load.windows[i][k] != nil {
				w := load.windows[i][k]
				fmt.Fprintf(&report, " | %.1f/s p50 %v p99 %v", float64(w.ok)/load.window.Seconds(), w.quantile(0.5).Round(time.Millisecond), w.quantile(0.99).Round(time.Millisecond))
				if w.failed > 0 {
					fmt.Fprintf(&report, " (%d failed)", w.failed)
					t.Errorf("minute %d: %d %s failed", i+1, w.failed, k)
				}
			} else {
				report.WriteString(" | –")
			}
		}
		fmt.Fprintf(&report, " | %.0f | %.0f | %.0f\n", s.rss/1024, s.goroutines, s.files)
	}
	acked := slices.Clone(load.acked)
	load.mu.Unlock()
	t.Logf("soak of %v:\n%s", length, report.String())
	if len(samples) >= 2 {
		first, last := samples[0], samples[len(samples)-1]
		for _, m := range []struct {
			name        string
			first, last float64
		}{{"RSS", first.rss, last.rss}, {"goroutines", first.goroutines, last.goroutines}, {"open files", first.files, last.files}} {
			if m.last > 1.1*m.first {
				t.Errorf("%s grew from %.0f after the first minute to %.0f", m.name, m.first, m.last)
			}
		}
	}

	// Every acknowledged submission is stored, and delivered once.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		receiver.mu.Lock()
		n := len(receiver.subs)
		receiver.mu.Unlock()
		if n >= len(acked) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	ro, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	stored := map[string]bool{}
	ro.ListSubmissions(context.Background(), hub.Filter{}, func(s hub.Submission) error {
		stored[s.ID] = true
		return nil
	})
	receiver.mu.Lock()
	defer receiver.mu.Unlock()
	lost, undelivered, twice := 0, 0, 0
	for _, id := range acked {
		if !stored[id] {
			lost++
		}
		switch receiver.subs[id] {
		case 0:
			undelivered++
		case 1:
		default:
			twice++
		}
	}
	t.Logf("%d submissions acknowledged, %d stored, %d delivered", len(acked), len(stored), len(receiver.subs))
	if lost+undelivered+twice > 0 {
		t.Errorf("of %d acknowledged: %d not stored, %d not delivered, %d delivered more than once", len(acked), lost, undelivered, twice)
	}
}

// zeros reads zeros for ever.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// soakConsole returns a client signed in to the console at base as Jane.
func soakConsole(t *testing.T, base string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page, err := client.Get(base + "/console/sign-in")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	token := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(html)
	if token == nil {
		t.Fatalf("no CSRF token in %s", html)
	}
	res, err := client.PostForm(base+"/console/sign-in", url.Values{"email": {"jane@example.com"}, "password": {"correct horse battery"}, "_csrf": {string(token[1])}})
	if err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %v %v", res, err)
	}
	res.Body.Close()
	return client
}
