package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuotaRefusesSubmissions sets a workspace's quotas from the command
// line while its hub runs: a submission over either is refused with 429
// and an error that says so, and nothing is stored.
func TestQuotaRefusesSubmissions(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	h := startHub(t, formsDir(t), data)
	quota := func(args ...string) {
		t.Helper()
		if status, stdout, stderr := hubform(t, append([]string{"workspaces", "set-quota", "--data", data, "default"}, args...)...); status != 0 {
			t.Fatalf("set-quota %q: %d %q %q", args, status, stdout, stderr)
		}
	}
	submit := func(extra ...string) (int, string) {
		t.Helper()
		status, _, stderr := hubform(t, append([]string{"submit", "--hub-url", h.url, "--site", "acme", "--form", "contact", "name=Jane"}, extra...)...)
		return status, stderr
	}
	// Set before the first submission: a hub reads a quota at most every
	// quota.MaxAge.
	quota("--submissions-per-month", "3", "--stored-bytes", "100")
	for i := range 2 {
		if status, stderr := submit(); status != 0 {
			t.Fatalf("submission %d within the quota: %d %s", i+1, status, stderr)
		}
	}
	file := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat("x", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	if status, stderr := submit("files=@" + file); status == 0 || !strings.Contains(stderr, "429") || !strings.Contains(stderr, "quota reached") {
		t.Errorf("a file over the stored bytes: %d %q; want 429 and quota reached", status, stderr)
	}
	if status, stderr := submit(); status != 0 {
		t.Errorf("the third submission, without files: %d %s", status, stderr)
	}
	if status, stderr := submit(); status == 0 || !strings.Contains(stderr, "429") || !strings.Contains(stderr, "quota reached") {
		t.Errorf("the fourth submission of a month with a quota of 3: %d %q; want 429 and quota reached", status, stderr)
	}
	_, out, _ := hubform(t, "submissions", "export", "--data", data, "--format", "json")
	if n := strings.Count(out, `"id"`); n != 3 {
		t.Errorf("%d submissions stored, want the 3 admitted", n)
	}
	if _, stdout, _ := hubform(t, "workspaces", "list", "--data", data); !strings.Contains(stdout, "3 submissions a month, 100 bytes stored, 500 e-mails a day (the default)") {
		t.Errorf("workspaces list:\n%s", stdout)
	}
	// A flag left out keeps its setting.
	quota("--mail-per-day", "7")
	if _, stdout, _ := hubform(t, "workspaces", "list", "--data", data); !strings.Contains(stdout, "3 submissions a month, 100 bytes stored, 7 e-mails a day") {
		t.Errorf("workspaces list after --mail-per-day 7:\n%s", stdout)
	}
}
