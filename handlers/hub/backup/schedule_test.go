package backup_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
)

// scheduled returns a schedule of data into to keeping 2, on a clock that
// moves an hour a backup, and the results it told.
func scheduled(t *testing.T, data string, to backup.Target) (*backup.Schedule, *[]backup.Result) {
	clock := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	var results []backup.Result
	s := &backup.Schedule{Copy: backup.Copy{DataDir: data, Snapshot: snapshot, To: to}, Every: time.Hour, Keep: 2, Logger: slog.New(slog.DiscardHandler),
		Now:  func() time.Time { clock = clock.Add(30 * time.Minute); return clock },
		Done: func(r backup.Result) { results = append(results, r) }}
	return s, &results
}

func TestScheduleKeeps(t *testing.T) {
	ctx := context.Background()
	dest := t.TempDir()
	s, results := scheduled(t, dataDir(t), backup.Dir(dest))
	for range 4 {
		if r := s.Once(ctx); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	os.MkdirAll(filepath.Join(dest, "hubform-20261128T000000Z"), 0o700) // cut short, no manifest
	names, err := backup.Dir(dest).Backups(ctx)
	if err != nil || strings.Join(names, " ") != "hubform-20261129T023000Z hubform-20261129T033000Z" {
		t.Errorf("the backups kept: %v, %v; want the two newest", names, err)
	}
	last, success := s.Last()
	if len(*results) != 4 || last.Name != "hubform-20261129T033000Z" || success.Name != last.Name || last.Took != 30*time.Minute {
		t.Errorf("results %d, last %+v", len(*results), last)
	}

	// A backup fails: the last success stays, Done hears of it.
	s.To = backup.Dir(filepath.Join(dest, "hubform-20261129T033000Z", backup.ManifestName))
	if r := s.Once(ctx); r.Err == nil {
		t.Fatal("a backup into a file succeeded")
	}
	last, success = s.Last()
	if last.Err == nil || success.Name != "hubform-20261129T033000Z" || (*results)[4].Err == nil {
		t.Errorf("after a failure: last %+v, success %+v", last, success)
	}
}

// TestScheduleOneAtATime: a backup of a data directory another process
// is backing up is refused, not taken twice at once.
func TestScheduleOneAtATime(t *testing.T) {
	data := dataDir(t)
	f, err := os.OpenFile(filepath.Join(data, backup.LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	s, _ := scheduled(t, data, backup.Dir(t.TempDir()))
	if r := s.Once(context.Background()); !errors.Is(r.Err, backup.ErrBusy) {
		t.Errorf("a backup while another runs: %v, want ErrBusy", r.Err)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if r := s.Once(context.Background()); r.Err != nil {
		t.Errorf("once the other ended: %v", r.Err)
	}
}

// TestScheduleKeepsInABucket keeps the two newest backups in a bucket.
func TestScheduleKeepsInABucket(t *testing.T) {
	ctx := context.Background()
	bucketURL, _, _ := backup.SplitBucketURL(s3test.URL(t))
	objects, err := s3blob.Open(ctx, bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	to := backup.Bucket{Objects: objects, Prefix: "hub1"}
	s, _ := scheduled(t, dataDir(t), to)
	for range 3 {
		if r := s.Once(ctx); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	names, err := to.Backups(ctx)
	if err != nil || strings.Join(names, " ") != "hubform-20261129T013000Z hubform-20261129T023000Z" {
		t.Errorf("the backups kept: %v, %v", names, err)
	}
	keys, err := objects.Keys(ctx, "hub1/hubform-20261129T003000Z/")
	if err != nil || len(keys) != 0 {
		t.Errorf("the oldest backup's objects left: %v, %v", keys, err)
	}
	if keys, _ := objects.Keys(ctx, "hub1/"); !slices.ContainsFunc(keys, func(k string) bool { return strings.HasSuffix(k, "023000Z/signing.key") }) {
		t.Errorf("the newest backup's objects: %v", keys)
	}
}
