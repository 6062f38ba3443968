package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// smallDisk mounts a file system of size bytes for the test, or skips
// the test where the machine allows no mount (not root, or a container
// without the right).
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("HUBFORM_DISK_TESTS") == "1" {
			t.Fatalf("mounting a small file system: %v %s", err, out)
		}
		t.Skipf("this machine mounts no small file system (%v %s); set HUBFORM_DISK_TESTS=1 to make this a failure", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes a file into dir until the file system has no room left,
// and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// The last bytes: a write of one at a time finds what a chunk did not.
	for {
		if _, err := f.Write(chunk[:1]); err != nil {
			return p
		}
	}
}

// TestHubOnAFullDisk fills the file system of a hub's data directory:
// submissions, upload URLs and uploads are refused with 507 and the
// error hubclient.StorageFull, the schema and the stored submissions are
// still served, nothing is corrupted, and once room is made the hub takes
// submissions and files again.
func TestHubOnAFullDisk(t *testing.T) {
	t.Parallel()
	data := filepath.Join(smallDisk(t, "24m"), "data")
	p := startHub(t, formsDir(t), data)
	ctx := context.Background()
	c := &hubclient.Client{HubURL: p.url, Timeout: 10 * time.Second}
	submit := func(name string, files ...string) error {
		req := &hubclient.SubmitRequest{Payload: map[string]any{"name": name, "message": strings.Repeat("m", 10000)}}
		for _, body := range files {
			a, err := c.Upload(ctx, "acme", "contact", hubclient.NewFile("f.txt", "text/plain", int64(len(body)),
				func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }))
			if err != nil {
				return err
			}
			a.Field = "files"
			req.Attachments = append(req.Attachments, a)
		}
		_, err := c.Submit(ctx, "acme", "contact", req)
		return err
	}
	for i := range 20 {
		if err := submit("before", strings.Repeat("x", i*100+1)); err != nil {
			t.Fatal(err)
		}
	}
	// An upload URL taken while there was room, its PUT after.
	url, err := c.UploadURL(ctx, "acme", "contact", hubclient.UploadURLRequest{Filename: "late.txt", Size: 2 << 20, MIME: "text/plain"})
	if err != nil {
		t.Fatal(err)
	}

	filler := fill(t, filepath.Dir(data))
	full := func(what string, err error) {
		t.Helper()
		var he *hubclient.HubError
		if !errors.As(err, &he) || he.StatusCode != http.StatusInsufficientStorage || !strings.HasPrefix(he.Message, hubclient.StorageFull) {
			t.Errorf("%s on a full disk: %v, want 507 %q", what, err, hubclient.StorageFull)
		}
	}
	// Submissions of a few kilobytes, until the database's free pages
	// are used up.
	var err2 error
	for i := 0; i < 2000 && err2 == nil; i++ {
		err2 = submit("during")
	}
	full("a submission", err2)
	body := bytes.Repeat([]byte("z"), 2<<20)
	full("an upload's PUT", c.Put(ctx, url.UploadURL, hubclient.NewFile("late.txt", "text/plain", int64(len(body)),
		func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil })))
	if _, err := c.Schema(ctx, "acme", "contact"); err != nil {
		t.Errorf("the schema on a full disk: %v", err)
	}
	if status, stdout, stderr := hubform(t, "submissions", "export", "--data", data); status != 0 || strings.Count(stdout, `"name":"before"`) != 20 {
		t.Errorf("listing on a full disk: %d %q", status, stderr)
	}

	os.Remove(filler)
	if err := submit("after", "a file after"); err != nil {
		t.Fatalf("a submission once room is made: %v; hub log:\n%s", err, p.log)
	}
	db, err := sqlite.OpenReadOnly(ctx, filepath.Join(data, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.Reader().QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
	names := map[string]int{}
	db.ListSubmissions(ctx, hub.Filter{}, func(s hub.Submission) error {
		switch {
		case bytes.Contains(s.Payload, []byte(`"before"`)):
			names["before"]++
		case bytes.Contains(s.Payload, []byte(`"after"`)):
			names["after"]++
		}
		return nil
	})
	if names["before"] != 20 || names["after"] != 1 {
		t.Errorf("stored %v, want the 20 before and the one after", names)
	}
}
