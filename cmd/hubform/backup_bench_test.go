package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/sqldb/inboxbench"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// EnvBackupFileBytes names the variable holding how many bytes of files
// BenchmarkBackup stores beside its submissions.
const EnvBackupFileBytes = "HUBFORM_BENCH_FILE_BYTES"

// EnvBackupMaxRate names the variable holding the --max-rate, in MB a
// second, BenchmarkBackup gives "hubform backup"; its default when unset.
const EnvBackupMaxRate = "HUBFORM_BENCH_BACKUP_MAX_RATE"

// BenchmarkBackup fills a hub's data directory with
// HUBFORM_BENCH_SUBMISSIONS submissions (as BenchmarkInbox does) and
// HUBFORM_BENCH_FILE_BYTES of files (1 MiB each, random), serves it with
// hubform hub, and measures: the submit rate of 16 clients for 10 seconds
// without a backup, then while "hubform backup" runs (at
// HUBFORM_BENCH_BACKUP_MAX_RATE, when set), their ratio; the
// backup's and the restore's rate in MB/s and peak memory (the child
// process's maximum RSS). The rate alone is measured before the backup and
// again after it, and the two averaged: the hub's own rate drifts by a
// tenth over a minute (its search index and counts catching up, the
// machine), more than a backup at its default rate costs. The submissions
// filled are indexed for search and counted for their summary first. Run
// it with -benchtime 1x.
func BenchmarkBackup(b *testing.B) {
	size, err := inboxbench.Size()
	if err != nil {
		b.Fatal(err)
	}
	fileBytes := int64(16 << 20)
	if v := os.Getenv(EnvBackupFileBytes); v != "" {
		if fileBytes, err = strconv.ParseInt(v, 10, 64); err != nil {
			b.Fatalf("%s=%q: %v", EnvBackupFileBytes, v, err)
		}
	}
	ctx := context.Background()
	data := b.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(data, "hub.db"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := inboxbench.FillDB(ctx, db, size); err != nil {
		b.Fatal(err)
	}
	// Indexed and counted, as a hub that took them one by one would have
	// them: the hub measured would otherwise be catching up.
	if _, err := db.IndexQueued(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := db.CountQueued(ctx); err != nil {
		b.Fatal(err)
	}
	db.Close()
	chunk := make([]byte, 1<<20)
	for i := int64(0); i*int64(len(chunk)) < fileBytes; i++ {
		rand.Read(chunk)
		p := filepath.Join(data, "files", "uploads", "bench", "files", fmt.Sprintf("%06d", i))
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, chunk, 0o600); err != nil {
			b.Fatal(err)
		}
	}

	p := startHub(b, formsDir(b), data)
	c := &hubclient.Client{HubURL: p.url, Timeout: 30 * time.Second}
	// rate submits from 16 clients until done is closed, and returns how
	// many a second the hub took.
	rate := func(done <-chan struct{}) float64 {
		var n atomic.Int64
		var wg sync.WaitGroup
		began := time.Now()
		for range 16 {
			wg.Go(func() {
				for {
					select {
					case <-done:
						return
					default:
					}
					if _, err := c.Submit(ctx, "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "bench"}}); err == nil {
						n.Add(1)
					}
				}
			})
		}
		wg.Wait()
		return float64(n.Load()) / time.Since(began).Seconds()
	}
	// run runs hubform with args and returns its time and peak RSS in MB.
	// The peak is the child's VmHWM, read every 50 ms until it exits:
	// the rusage's maximum RSS of a child started by vfork and exec is
	// the parent's when larger (the kernel keeps the old memory's peak
	// across exec), and this benchmark's process holds hundreds of MB.
	run := func(args ...string) (time.Duration, float64, string) {
		cmd := exec.Command(binary, args...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		began := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var peak float64
		exited := make(chan struct{})
		var polled sync.WaitGroup
		polled.Go(func() {
			for {
				if kB, ok := peakRSS(cmd.Process.Pid); ok {
					peak = max(peak, kB/1024)
				}
				select {
				case <-exited:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
		err := cmd.Wait()
		close(exited)
		polled.Wait()
		if err != nil {
			b.Fatalf("hubform %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return time.Since(began), peak, out.String()
	}

	alone := make(chan struct{})
	time.AfterFunc(10*time.Second, func() { close(alone) })
	without := rate(alone)
	dest := b.TempDir()
	during := make(chan struct{})
	var with float64
	var wg sync.WaitGroup
	wg.Go(func() { with = rate(during) })
	args := []string{"backup", "--data", data, "--to", dest}
	if v := os.Getenv(EnvBackupMaxRate); v != "" {
		args = append(args, "--max-rate", v)
	}
	took, peak, out := run(args...)
	close(during)
	wg.Wait()
	after := make(chan struct{})
	time.AfterFunc(10*time.Second, func() { close(after) })
	before, afterwards := without, rate(after)
	without = (before + afterwards) / 2
	folder := strings.SplitN(out, ":", 2)[0]
	var backedUp int64
	filepath.Walk(folder, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			backedUp += info.Size()
		}
		return nil
	})
	restoreTook, restorePeak, _ := run("restore", "--from", folder, "--data", filepath.Join(b.TempDir(), "restored"))

	mb := float64(backedUp) / 1e6
	b.ReportMetric(float64(size), "submissions")
	b.ReportMetric(mb, "backup-MB")
	b.ReportMetric(mb/took.Seconds(), "backup-MB/s")
	b.ReportMetric(peak, "backup-peak-RSS-MB")
	b.ReportMetric(mb/restoreTook.Seconds(), "restore-MB/s")
	b.ReportMetric(restorePeak, "restore-peak-RSS-MB")
	b.ReportMetric(before, "submit-alone-before/s")
	b.ReportMetric(afterwards, "submit-alone-after/s")
	b.ReportMetric(without, "submit-alone/s")
	b.ReportMetric(with, "submit-during-backup/s")
	b.ReportMetric(with/without, "submit-during-backup-ratio")
	b.Logf("%d submissions and %d MB of files: backup of %.0f MB in %v (%.1f MB/s, peak RSS %.0f MB), restore in %v (%.1f MB/s, peak RSS %.0f MB); submissions %.0f/s alone (%.0f before, %.0f after), %.0f/s during the backup (%.2fx)",
		size, fileBytes>>20, mb, took.Round(time.Millisecond), mb/took.Seconds(), peak, restoreTook.Round(time.Millisecond), mb/restoreTook.Seconds(), restorePeak,
		without, before, afterwards, with, with/without)
}

// peakRSS returns the VmHWM of the process pid in kB, false once it has
// exited.
func peakRSS(pid int) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kB, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kB, err == nil
		}
	}
	return 0, false
}
