package backup_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
)

// TestBucket takes a backup into a bucket, under a prefix, and restores
// it from there.
func TestBucket(t *testing.T) {
	ctx := context.Background()
	bucketURL, prefix, ok := backup.SplitBucketURL(strings.Replace(s3test.URL(t), "?", "/nightly/hub1?", 1))
	if !ok || prefix != "nightly/hub1" {
		t.Fatalf("SplitBucketURL: %q, %q, %t", bucketURL, prefix, ok)
	}
	objects, err := s3blob.Open(ctx, bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 0, 30, 0, 0, time.UTC)
	dest := backup.Bucket{Objects: objects, Prefix: prefix}
	m, err := backup.Copy{DataDir: dataDir(t), Snapshot: snapshot, To: dest}.Take(ctx, backup.Name(at), at)
	if err != nil {
		t.Fatal(err)
	}
	restored := t.TempDir()
	got, err := backup.Restore(ctx, backup.Bucket{Objects: objects, Prefix: prefix + "/" + backup.Name(at)}, restored)
	if err != nil || len(got.Files) != len(m.Files) {
		t.Fatalf("restored %d files, %v; want %d", len(got.Files), err, len(m.Files))
	}
	if b, err := os.ReadFile(filepath.Join(restored, "files", "acme", "contact", "k1")); err != nil || string(b) != "a file" {
		t.Errorf("a file restored from the bucket: %q, %v", b, err)
	}
	if _, err := backup.Restore(ctx, backup.Bucket{Objects: objects, Prefix: "nothing/here"}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a complete backup") {
		t.Errorf("a prefix without a backup: %v", err)
	}
	for _, bad := range []string{"/backups", "s3://", "http://bucket/x"} {
		if _, _, ok := backup.SplitBucketURL(bad); ok {
			t.Errorf("SplitBucketURL(%q) ok", bad)
		}
	}
}
