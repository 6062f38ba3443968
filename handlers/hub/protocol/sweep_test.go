package protocol_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

func TestSweep(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	const ttl = 24 * time.Hour

	// Two old uploads, one of them claimed, and one only signed.
	old := h.upload("apply", "cv", "old.pdf", "application/pdf", pdfBody)
	claimed := h.upload("apply", "cv", "claimed.pdf", "application/pdf", pdfBody)
	h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{claimed}}).wantOK(t)
	signed := h.uploadURL("apply", "signed.pdf", "application/pdf", 3)

	// A day and a minute later, a young upload.
	h.clock.Add(ttl + time.Minute)
	young := h.upload("apply", "cv", "young.pdf", "application/pdf", pdfBody)

	n, err := h.Protocol.Sweep(ctx, ttl)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Sweep deleted %d uploads, want 2", n)
	}
	for _, key := range []string{old.Key, signed.Key} {
		if _, err := h.DB.Upload(ctx, key); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("record of swept %s: error %v, want hub.ErrNotFound", key, err)
		}
		h.wantNoFile(key)
	}
	for _, key := range []string{claimed.Key, young.Key} {
		if _, err := h.DB.Upload(ctx, key); err != nil {
			t.Errorf("record of kept %s: %v", key, err)
		}
		h.File(key)
	}

	// A swept upload can no longer be submitted.
	h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{old}}).
		wantError(t, http.StatusUnprocessableEntity)
	// The young one still can.
	h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{young}}).wantOK(t)

	// Nothing is left to sweep.
	if n, err := h.Protocol.Sweep(ctx, ttl); n != 0 || err != nil {
		t.Errorf("second Sweep: %d, %v; want 0, nil", n, err)
	}
}

func TestSweepMany(t *testing.T) {
	if testing.Short() {
		t.Skip("signs 150 upload URLs")
	}
	h := newHarness(t)
	// More than one batch of the store's.
	var keys []string
	for range 150 {
		keys = append(keys, h.uploadURL("apply", "a.pdf", "application/pdf", 1).Key)
	}
	h.clock.Add(protocol.MinUploadTTL + time.Second)
	n, err := h.Protocol.Sweep(context.Background(), protocol.MinUploadTTL)
	if err != nil || n != len(keys) {
		t.Errorf("Sweep: %d, %v; want %d, nil", n, err, len(keys))
	}
}

func TestSweepTTL(t *testing.T) {
	h := newHarness(t)
	h.uploadURL("apply", "a.pdf", "application/pdf", 1)
	h.clock.Add(time.Hour)
	for _, ttl := range []time.Duration{0, -time.Hour, time.Minute, protocol.MinUploadTTL - time.Nanosecond} {
		if n, err := h.Protocol.Sweep(context.Background(), ttl); err == nil || n != 0 {
			t.Errorf("Sweep(%v) = %d, %v; want an error", ttl, n, err)
		}
	}
	if n, err := h.Protocol.Sweep(context.Background(), protocol.MinUploadTTL); err != nil || n != 0 {
		t.Errorf("Sweep(%v) = %d, %v; want 0, nil (the upload is an hour old)", protocol.MinUploadTTL, n, err)
	}
}

func TestRunSweeper(t *testing.T) {
	h := newHarness(t)
	u := h.uploadURL("apply", "a.pdf", "application/pdf", 1)
	h.clock.Add(protocol.MinUploadTTL + time.Minute)
	// A count that reached 0 a day ago, which the sweep compacts away.
	day := h.clock.Now().Add(-24*time.Hour).UnixMilli() / 900000
	if _, err := h.DB.Writer().Exec(`INSERT INTO submission_counts (site, form, quarter, spam, slot, n) VALUES ('s', 'f', $1, false, 0, 0)`, day); err != nil {
		t.Fatal(err)
	}
	counted := func() int {
		var n int
		if err := h.DB.Reader().QueryRow(`SELECT COUNT(*) FROM submission_counts WHERE site = 's'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		h.Protocol.RunSweeper(ctx, time.Hour, protocol.MinUploadTTL)
		close(done)
	}()
	// The first sweep runs at once.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := h.DB.Upload(context.Background(), u.Key); errors.Is(err, hub.ErrNotFound) && counted() == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("RunSweeper did not sweep at once")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunSweeper did not return when its context was done")
	}
}
