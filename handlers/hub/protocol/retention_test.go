package protocol_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
)

// keptForm keeps its submissions 30 days.
var keptForm = strings.Replace(applyForm, `"hub": {`, `"hub": {"retentionDays": 30, `, 1)

// fileStore is what the retention tests read files back through.
type fileStore interface {
	Attributes(ctx context.Context, key string) (int64, string, error)
}

func TestRetentionLocal(t *testing.T) {
	h := newHarnessWithForms(t, func(dir string) { writeFile(t, filepath.Join(dir, "acme", "kept.json"), keptForm) })
	testRetention(t, h, h.Blobs)
}

// TestRetentionBucket runs the same on a bucket, versitygw, whose files
// are sealed from their staging objects.
func TestRetentionBucket(t *testing.T) {
	bucket, err := s3blob.Open(context.Background(), s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bucket.Close() })
	h := newHarnessWithForms(t, func(dir string) { writeFile(t, filepath.Join(dir, "acme", "kept.json"), keptForm) },
		func(cfg *protocol.Config) { cfg.Blobs, cfg.Uploads = bucket, nil })
	testRetention(t, h, bucket)
}

func testRetention(t *testing.T, h *harness, files fileStore) {
	ctx := context.Background()
	submit := func(slug string) hubclient.Attachment {
		t.Helper()
		cv := h.upload(slug, "cv", "cv.pdf", "application/pdf", pdfBody)
		h.submit(slug, hubclient.SubmitRequest{Payload: map[string]any{"name": slug}, Attachments: []hubclient.Attachment{cv}}).wantOK(t)
		return cv
	}
	old := submit("kept")
	unlimited := submit("apply")
	h.clock.Add(30*24*time.Hour + time.Minute)
	young := submit("kept")

	n, err := h.Protocol.ApplyRetention(ctx)
	if err != nil || n != 1 {
		t.Fatalf("ApplyRetention = %d, %v; want the one old submission of the form keeping 30 days", n, err)
	}
	var left []string
	for _, s := range h.Submissions() {
		left = append(left, s.Slug+" "+s.Attachments[0].Key)
	}
	if want := []string{"apply " + unlimited.Key, "kept " + young.Key}; strings.Join(left, ",") != strings.Join(want, ",") {
		t.Errorf("left %q, want %q", left, want)
	}
	if _, _, err := files.Attributes(ctx, old.Key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("file of the deleted submission: %v, want not found", err)
	}
	if _, err := h.DB.Upload(ctx, old.Key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("upload record of the deleted submission: %v, want not found", err)
	}
	for _, key := range []string{unlimited.Key, young.Key} {
		if _, _, err := files.Attributes(ctx, key); err != nil {
			t.Errorf("file of a kept submission %s: %v", key, err)
		}
	}
	if n, err := h.Protocol.ApplyRetention(ctx); n != 0 || err != nil {
		t.Errorf("second ApplyRetention: %d, %v; want nothing", n, err)
	}
}

// versionedForms serves its forms as version 5 of database forms.
type versionedForms struct{ hub.FormSource }

func (v versionedForms) Lookup(site, slug string) (*hub.Form, error) {
	f, err := v.FormSource.Lookup(site, slug)
	if err != nil {
		return nil, err
	}
	c := *f
	c.Version = 5
	return &c, nil
}

// TestSubmissionRecordsFormVersion checks that a submission keeps the
// version of the form it was validated against, for the inbox's labels.
func TestSubmissionRecordsFormVersion(t *testing.T) {
	h := newHarness(t, func(cfg *protocol.Config) { cfg.Forms = versionedForms{cfg.Forms} })
	cv := h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)
	h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{cv}}).wantOK(t)
	if subs := h.Submissions(); len(subs) != 1 || subs[0].FormVersion != 5 {
		t.Errorf("stored %+v, want one submission of form version 5", subs)
	}
}

// TestPurgeDeleted checks that a submission deleted from the console is
// kept, with its file, for hub.UndoPeriod, and purged with it after.
func TestPurgeDeleted(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	cv := h.upload("apply", "cv", "cv.pdf", "application/pdf", pdfBody)
	h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{"name": "a"}, Attachments: []hubclient.Attachment{cv}}).wantOK(t)
	id := h.Submissions()[0].ID
	if d, err := h.DB.TrashSubmissions(ctx, "acme", "apply", []string{id}, h.clock.Now()); err != nil || d.Submissions != 1 {
		t.Fatalf("TrashSubmissions = %+v, %v", d, err)
	}
	h.clock.Add(hub.UndoPeriod - time.Second)
	if n, err := h.Protocol.PurgeDeleted(ctx); err != nil || n != 0 {
		t.Errorf("PurgeDeleted within the period = %d, %v; want nothing", n, err)
	}
	if _, _, err := h.Blobs.Attributes(ctx, cv.Key); err != nil {
		t.Errorf("file within the period: %v", err)
	}
	h.clock.Add(2 * time.Second)
	if n, err := h.Protocol.PurgeDeleted(ctx); err != nil || n != 1 {
		t.Errorf("PurgeDeleted after the period = %d, %v; want 1", n, err)
	}
	if _, _, err := h.Blobs.Attributes(ctx, cv.Key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("file of the purged submission: %v, want not found", err)
	}
	if _, err := h.DB.Upload(ctx, cv.Key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("upload record of the purged submission: %v, want not found", err)
	}
}
