package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/hubclient"
)

// binary is the hubform command built for the tests that run it as a
// process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hubform-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "hubform")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building hubform: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	pgtest.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

const contactForm = `{
  "title": "Contact us",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [{"id": "all", "fields": ["name", "message", "files", "_hp"]}],
  "hub": {"maxFileSize": 8388608}
}`

// formsDir returns a forms directory holding acme/contact.
func formsDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "acme", "contact.json"), []byte(contactForm), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hubProcess is a running "hubform hub".
type hubProcess struct {
	cmd  *exec.Cmd
	url  string
	done chan error
	log  *testkit.Buffer
}

// startHub runs the hub binary on a free loopback port and waits until it
// serves.
func startHub(t testing.TB, forms, data string, extra ...string) *hubProcess {
	t.Helper()
	args := append([]string{"hub", "--addr", "127.0.0.1:0", "--forms", forms, "--data", data, "--rate-limit", "0"}, extra...)
	cmd := exec.Command(binary, args...)
	stdout, _ := cmd.StdoutPipe()
	p := &hubProcess{cmd: cmd, done: make(chan error, 1), log: &testkit.Buffer{}}
	cmd.Stderr = p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("hub did not start: %v; log:\n%s", err, p.log)
	}
	// "hubform hub: serving http://127.0.0.1:PORT/v1 (…)"
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[2] != "serving" {
		t.Fatalf("unexpected first line %q", line)
	}
	p.url = fields[3]
	go func() { io.Copy(io.Discard, stdout); p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	return p
}

func TestHubEndToEnd(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	p := startHub(t, formsDir(t), data)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.txt")
	os.WriteFile(report, []byte(strings.Repeat("line of the report\n", 5000)), 0o600)

	status, stdout, stderr := hubform(t, "submit", "--hub-url", p.url, "--site", "acme", "--form", "contact",
		"name=Jane", "message=Hello", "files=@"+report, "_hp=")
	if status != 0 {
		t.Fatalf("submit: status %d, %s; hub log:\n%s", status, stderr, p.log)
	}
	id := strings.TrimSpace(stdout)

	status, stdout, stderr = hubform(t, "submissions", "export", "--data", data)
	var listed []hub.Submission
	if status != 0 || json.Unmarshal([]byte(stdout), &listed) != nil {
		t.Fatalf("export: status %d, %q %q", status, stdout, stderr)
	}
	if len(listed) != 1 || listed[0].ID != id || listed[0].Site != "acme" || listed[0].Slug != "contact" || len(listed[0].Attachments) != 1 {
		t.Fatalf("listed %+v, want submission %s", listed, id)
	}
	var payload map[string]any
	json.Unmarshal(listed[0].Payload, &payload)
	if payload["name"] != "Jane" || payload["message"] != "Hello" || len(payload) != 2 {
		t.Errorf("payload %v", payload)
	}
	want, _ := os.ReadFile(report)
	got, err := os.ReadFile(filepath.Join(data, "files", filepath.FromSlash(listed[0].Attachments[0].Key)))
	if err != nil || sha256.Sum256(got) != sha256.Sum256(want) {
		t.Errorf("stored file differs from the uploaded one (%v)", err)
	}
}

// TestHubFinishesRequestsOnSIGTERM stops the hub in the middle of an
// upload: the upload completes, then the hub exits cleanly.
func TestHubFinishesRequestsOnSIGTERM(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	p := startHub(t, formsDir(t), data)
	c := &hubclient.Client{HubURL: p.url}
	const size = 1 << 20
	up, err := c.UploadURL(context.Background(), "acme", "contact", hubclient.UploadURLRequest{Filename: "big.bin", Size: size, MIME: "application/octet-stream"})
	if err != nil {
		t.Fatal(err)
	}
	body, feed := io.Pipe()
	req, _ := http.NewRequest(http.MethodPut, up.UploadURL, body)
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/octet-stream")
	answered := make(chan *http.Response, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("PUT: %v", err)
		}
		answered <- res
	}()
	half := make([]byte, size/2)
	feed.Write(half)
	// Signal only once the hub streams this body into a file: a request
	// it has not begun to read may be closed as idle, keep-alive's lot.
	waitFor(t, func() bool {
		tmp, _ := filepath.Glob(filepath.Join(data, "files", filepath.FromSlash(filepath.Dir(up.Key)), "*.tmp"))
		return len(tmp) > 0
	})
	p.cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(200 * time.Millisecond)
	feed.Write(half)
	feed.Close()
	if res := <-answered; res == nil || res.StatusCode != http.StatusOK {
		t.Fatalf("PUT during shutdown: %v; log:\n%s", res, p.log)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("hub exited with %v; log:\n%s", err, p.log)
		}
		p.done <- err // for the cleanup
	case <-time.After(10 * time.Second):
		t.Fatal("hub did not exit after SIGTERM")
	}
	if info, err := os.Stat(filepath.Join(data, "files", filepath.FromSlash(up.Key))); err != nil || info.Size() != size {
		t.Errorf("file after shutdown: %v, %v", info, err)
	}
}

// startPut begins a PUT of size bytes to a fresh upload URL of p, sends
// half of the body and returns once the hub writes it to a temporary file.
// The answer, or nil on a transport error, arrives on the channel; closing
// feed ends the body early.
func startPut(t *testing.T, p *hubProcess, data string, size int) (feed *io.PipeWriter, answered chan *http.Response) {
	t.Helper()
	c := &hubclient.Client{HubURL: p.url}
	up, err := c.UploadURL(context.Background(), "acme", "contact", hubclient.UploadURLRequest{Filename: "big.bin", Size: int64(size), MIME: "application/octet-stream"})
	if err != nil {
		t.Fatal(err)
	}
	body, feed := io.Pipe()
	req, _ := http.NewRequest(http.MethodPut, up.UploadURL, body)
	req.ContentLength = int64(size)
	req.Header.Set("Content-Type", "application/octet-stream")
	answered = make(chan *http.Response, 1)
	go func() {
		res, _ := http.DefaultClient.Do(req)
		if res != nil {
			res.Body.Close()
		}
		answered <- res
	}()
	go feed.Write(make([]byte, size/2))
	waitFor(t, func() bool { return len(tmpFiles(t, data)) > 0 })
	t.Cleanup(func() { feed.Close() })
	return feed, answered
}

// tmpFiles lists the temporary files under the hub's files directory.
func tmpFiles(t *testing.T, data string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(filepath.Join(data, "files"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// TestHubCancelsRequestsAfterGrace stops the hub while an upload stalls:
// once the grace period is over the upload is cancelled, its temporary
// file removed, and the hub exits 0.
func TestHubCancelsRequestsAfterGrace(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	p := startHub(t, formsDir(t), data, "--shutdown-grace", "200ms")
	feed, answered := startPut(t, p, data, 1<<20)
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("hub exited with %v; log:\n%s", err, p.log)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("hub did not exit after SIGTERM and its grace period; log:\n%s", p.log)
	}
	feed.Close() // the client's transport waits for its body before it gives up
	if res := <-answered; res != nil && res.StatusCode == http.StatusOK {
		t.Errorf("the stalled PUT was answered 200")
	}
	if left := tmpFiles(t, data); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if !strings.Contains(p.log.String(), "grace period over") {
		t.Errorf("log does not say the grace period ended:\n%s", p.log)
	}
}

// TestHubSweepsTemporaryFilesAfterSIGKILL kills the hub during an upload,
// which leaves the temporary file; a hub started on the same data once it
// is older than the upload TTL removes it.
func TestHubSweepsTemporaryFilesAfterSIGKILL(t *testing.T) {
	t.Parallel()
	forms, data := formsDir(t), t.TempDir()
	p := startHub(t, forms, data)
	startPut(t, p, data, 1<<20)
	p.cmd.Process.Kill()
	<-p.done
	p.done <- nil
	left := tmpFiles(t, data)
	if len(left) != 1 {
		t.Fatalf("temporary files after SIGKILL: %v, want the upload's", left)
	}
	// Older than the upload TTL: swept when the next hub starts.
	old := time.Now().Add(-25 * time.Hour)
	if err := os.Chtimes(left[0], old, old); err != nil {
		t.Fatal(err)
	}
	restarted := startHub(t, forms, data, "--upload-ttl", "24h")
	// The sweep removes the file, then its directory.
	waitFor(t, func() bool {
		_, err := os.Stat(filepath.Dir(left[0]))
		return len(tmpFiles(t, data)) == 0 && os.IsNotExist(err)
	})
	restarted.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-restarted.done; err != nil {
		t.Errorf("hub exited with %v; log:\n%s", err, restarted.log)
	}
	restarted.done <- nil
}

// TestHubKeepsAcknowledgedSubmissionsAcrossSIGKILL kills the hub during a
// burst of submissions, restarts it on the same data, and finds every
// submission it acknowledged.
func TestHubKeepsAcknowledgedSubmissionsAcrossSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a burst of submissions against a process")
	}
	forms, data := formsDir(t), t.TempDir()
	p := startHub(t, forms, data)
	burst := startBurst(&hubclient.Client{HubURL: p.url, Timeout: 5 * time.Second}, 16, 0)
	waitForN(t, 10*time.Second, func() bool { return burst.count() >= 200 })
	p.cmd.Process.Kill() // SIGKILL, mid-burst
	<-p.done
	p.done <- nil
	acked := burst.end()
	if len(acked) < 200 {
		t.Fatalf("only %d submissions acknowledged before the kill", len(acked))
	}

	restarted := startHub(t, forms, data)
	if _, err := (&hubclient.Client{HubURL: restarted.url}).Schema(context.Background(), "acme", "contact"); err != nil {
		t.Fatalf("restarted hub: %v", err)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := map[string]bool{}
	db.ListSubmissions(context.Background(), hub.Filter{}, func(s hub.Submission) error {
		stored[s.ID] = true
		return nil
	})
	lost := 0
	for _, id := range acked {
		if !stored[id] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged submissions lost", lost, len(acked))
	}
	t.Logf("%d acknowledged, %d stored", len(acked), len(stored))
}

func TestHubCommandErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hub", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--db", "mysql://hub"}, "--db: want a postgres:// URL"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--upload-ttl", "1m"}, "--upload-ttl must be at least"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--trusted-proxies", "nope"}, "--trusted-proxies"},
		{[]string{"hub", "--forms", filepath.Join(t.TempDir(), "missing"), "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, "missing"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--signing-secret", "short"}, "at least 32 bytes"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--log-format", "xml"}, `--log-format "xml"`},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--shutdown-grace", "0s"}, "--shutdown-grace must be positive"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--forms-workspace", "nowhere"}, "--forms-workspace: no workspace nowhere"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--oidc-issuer", "http://127.0.0.1:9/oidc"}, "go together"},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--signup", "anyone"}, `--signup "anyone": want closed, invite or open`},
		{[]string{"hub", "--forms", t.TempDir(), "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--oidc-issuer", "http://127.0.0.1:9/oidc", "--oidc-client-id", "a", "--oidc-client-secret", "b"}, "--oidc-issuer: OpenID Connect provider"},
	} {
		status, _, stderr := hubform(t, tc.args...)
		if status != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", tc.args, status, stderr, tc.want)
		}
	}
	_, stdout, _ := hubform(t, "hub", "--help")
	for _, want := range []string{"--forms DIR", "--public-url URL", "HUBFORM_SIGNING_SECRET", "--turnstile-verify-url", "--rate-limit", "HUBFORM_SHUTDOWN_GRACE", "Example:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("hub --help lacks %q", want)
		}
	}
}

// waitFor polls cond until it holds, failing the test after 5 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	waitForN(t, 5*time.Second, cond)
}

// waitForN polls cond until it holds, failing the test after d.
func waitForN(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("condition not met within %v", d)
}

// submissionBurst submits to acme/contact from several goroutines until it
// is ended, keeping the ids the hub acknowledged.
type submissionBurst struct {
	mu    sync.Mutex
	acked []string
	stop  chan struct{}
	wg    sync.WaitGroup
}

// startBurst starts a burst from workers goroutines, each pausing for
// pause before every submission.
func startBurst(c *hubclient.Client, workers int, pause time.Duration) *submissionBurst {
	b := &submissionBurst{stop: make(chan struct{})}
	for w := range workers {
		b.wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-b.stop:
					return
				case <-time.After(pause):
				}
				res, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
					Payload: map[string]any{"name": fmt.Sprintf("worker %d #%d", w, i)},
				})
				if err != nil {
					continue // refused connections once the hub is dead
				}
				b.mu.Lock()
				b.acked = append(b.acked, res.SubmissionID)
				b.mu.Unlock()
			}
		})
	}
	return b
}

// count returns how many submissions were acknowledged so far.
func (b *submissionBurst) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.acked)
}

// end stops the burst and returns the acknowledged ids.
func (b *submissionBurst) end() []string {
	close(b.stop)
	b.wg.Wait()
	return b.acked
}
