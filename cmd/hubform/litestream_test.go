package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// litestreamSync is the replica's sync interval in the test's recipe.
const litestreamSync = 500 * time.Millisecond

// TestLitestreamRecipe runs OPERATIONS.md's recipe of continuous
// backups: a hub on SQLite whose files are in a bucket, and Litestream
// replicating its database to the same bucket. A burst of submissions with
// files, then the hub and Litestream killed, the data directory deleted,
// "litestream restore", and the hub started again: every submission
// acknowledged more than twice the sync interval before the kill is
// there, its file in the bucket.
func TestLitestreamRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hub and Litestream under a burst")
	}
	bin := s3test.Litestream(t)
	bucketURL := s3test.URL(t)
	u, _ := url.Parse(bucketURL)
	forms, data := formsDir(t), t.TempDir()
	config := filepath.Join(t.TempDir(), "litestream.yml")
	yml := fmt.Sprintf(`dbs:
  - path: %s
    replicas:
      - type: s3
        bucket: %s
        path: litestream/hub.db
        endpoint: %s
        region: %s
        force-path-style: true
        sync-interval: %s
`, filepath.Join(data, "hub.db"), u.Host, u.Query().Get("endpoint"), u.Query().Get("region"), litestreamSync)
	if err := os.WriteFile(config, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}

	p := startHub(t, forms, data, "--blob", bucketURL)
	replicate := exec.Command(bin, "replicate", "-config", config)
	var replicateLog strings.Builder
	replicate.Stdout, replicate.Stderr = &replicateLog, &replicateLog
	if err := replicate.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { replicate.Process.Kill(); replicate.Wait() })

	// A burst, each submission with a file, its acknowledgement timed.
	type ack struct {
		id, key string
		at      time.Time
	}
	var (
		mu    sync.Mutex
		acked []ack
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	c := &hubclient.Client{HubURL: p.url, Timeout: 5 * time.Second}
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf("file %d of worker %d", i, w)
				a, err := c.Upload(context.Background(), "acme", "contact", hubclient.NewFile("f.txt", "text/plain", int64(len(body)),
					func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }))
				if err != nil {
					continue
				}
				a.Field = "files"
				res, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
					Payload: map[string]any{"name": fmt.Sprintf("worker %d #%d", w, i)}, Attachments: []hubclient.Attachment{a}})
				if err != nil {
					continue
				}
				mu.Lock()
				acked = append(acked, ack{res.SubmissionID, a.Key, time.Now()})
				mu.Unlock()
			}
		})
	}
	time.Sleep(4 * time.Second)
	// The machine dies: hub and replicator at once.
	killedAt := time.Now()
	p.cmd.Process.Kill()
	replicate.Process.Kill()
	close(stop)
	wg.Wait()
	<-p.done
	p.done <- nil
	replicate.Wait()

	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(data, 0o700)
	if out, err := exec.Command(bin, "restore", "-config", config, filepath.Join(data, "hub.db")).CombinedOutput(); err != nil {
		t.Fatalf("litestream restore: %v\n%s\nreplicate's log:\n%s", err, out, replicateLog.String())
	}
	again := startHub(t, forms, data, "--blob", bucketURL)
	if _, err := (&hubclient.Client{HubURL: again.url}).Schema(context.Background(), "acme", "contact"); err != nil {
		t.Fatalf("the restored hub: %v", err)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := map[string]bool{}
	if err := db.ListSubmissions(context.Background(), hub.Filter{}, func(s hub.Submission) error {
		stored[s.ID] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	files, err := s3blob.Open(context.Background(), bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	due, lost := 0, 0
	for _, a := range acked {
		if killedAt.Sub(a.at) <= 2*litestreamSync {
			continue
		}
		due++
		if !stored[a.id] {
			lost++
			continue
		}
		if _, _, err := files.Attributes(context.Background(), a.key); err != nil {
			t.Errorf("the file of %s: %v", a.id, err)
		}
	}
	if due < 20 || lost > 0 {
		t.Errorf("%d of the %d submissions acknowledged over %v before the kill were lost (%d acknowledged, %d restored); replicate's log:\n%s",
			lost, due, 2*litestreamSync, len(acked), len(stored), replicateLog.String())
	}
	t.Logf("%d acknowledged, %d over %v before the kill, %d restored", len(acked), due, 2*litestreamSync, len(stored))
}
