package protocol_test

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// sealBlobs is an object store in memory that clients upload to directly:
// a body PUT to a signed URL lands in staged, and only Seal writes files.
type sealBlobs struct {
	mu     sync.Mutex
	staged map[string][]byte
	files  map[string][]byte
	types  map[string]string
	seals  int
}

func newSealBlobs() *sealBlobs {
	return &sealBlobs{staged: map[string][]byte{}, files: map[string][]byte{}, types: map[string]string{}}
}

// put is a client's PUT to the URL signed for key.
func (b *sealBlobs) put(key, mime string, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.staged[key], b.types[key] = body, mime
}

func (b *sealBlobs) file(key string) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.files[key]
}

func (b *sealBlobs) SignedPutURL(_ context.Context, u hub.Upload, _ time.Duration) (string, error) {
	return "http://bucket.invalid/incoming/" + u.Key, nil
}

func (b *sealBlobs) attributes(m map[string][]byte, key string) (int64, string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	body, ok := m[key]
	if !ok {
		return 0, "", hub.ErrNotFound
	}
	return int64(len(body)), b.types[key], nil
}

func (b *sealBlobs) Attributes(_ context.Context, key string) (int64, string, error) {
	return b.attributes(b.files, key)
}

func (b *sealBlobs) Staged(_ context.Context, key string) (int64, string, error) {
	return b.attributes(b.staged, key)
}

func (b *sealBlobs) Seal(_ context.Context, u hub.Upload) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	body, ok := b.staged[u.Key]
	if !ok {
		return hub.ErrNotFound
	}
	b.files[u.Key] = body
	delete(b.staged, u.Key)
	b.seals++
	return nil
}

func (b *sealBlobs) SweepLeftovers(context.Context, time.Time) (int, error) { return 0, nil }

func (b *sealBlobs) Delete(_ context.Context, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.files, key)
	delete(b.staged, key)
	return nil
}

// TestSealedOnce submits uploads to a store that seals them: the first
// submission seals the file, a body PUT again afterwards changes nothing,
// and a hub that finds the upload marked by another only accepts it once
// that other sealed it.
func TestSealedOnce(t *testing.T) {
	blobs := newSealBlobs()
	stale := &staleStore{}
	h := newHarness(t, func(c *protocol.Config) {
		stale.Store = c.Store
		c.Blobs, c.Uploads, c.Store = blobs, nil, stale
	})
	submit := func(a hubclient.Attachment) *response {
		return h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{a}})
	}
	attach := func(name string, body []byte) hubclient.Attachment {
		u := h.uploadURL("apply", name, "application/pdf", int64(len(body)))
		return hubclient.Attachment{Key: u.Key, Filename: name, Size: int64(len(body)), MIME: "application/pdf", Field: "cv"}
	}

	first := []byte("%PDF first")
	a := attach("a.pdf", first)
	submit(a).wantError(t, http.StatusUnprocessableEntity) // nothing PUT yet
	blobs.put(a.Key, a.MIME, first)
	submit(a).wantOK(t)
	if blobs.seals != 1 || !bytes.Equal(blobs.file(a.Key), first) {
		t.Fatalf("after the submission: %d seals, file %q", blobs.seals, blobs.file(a.Key))
	}
	blobs.put(a.Key, a.MIME, []byte("%PDF other")) // the URL still works
	submit(a).wantError(t, http.StatusUnprocessableEntity)
	if blobs.seals != 1 || !bytes.Equal(blobs.file(a.Key), first) {
		t.Errorf("after a second PUT: %d seals, file %q; want the first", blobs.seals, blobs.file(a.Key))
	}

	// Another hub marked this upload uploaded and has not sealed it yet;
	// this one read the record before, and then found it marked.
	body := []byte("%PDF late")
	b := attach("b.pdf", body)
	blobs.put(b.Key, b.MIME, body)
	if err := h.DB.MarkUploaded(context.Background(), b.Key, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, read := range []string{"stale", "fresh"} {
		stale.set(b.Key, read == "stale")
		submit(b).wantError(t, http.StatusUnprocessableEntity)
		if blobs.seals != 1 {
			t.Errorf("%s record: a hub that did not mark the upload sealed it", read)
		}
	}
	blobs.Seal(context.Background(), hub.Upload{Key: b.Key}) // that hub, done
	submit(b).wantOK(t)
	if blobs.seals != 2 {
		t.Errorf("%d seals, want 2", blobs.seals)
	}
	h.wantCount(2)
}

// staleStore answers the upload record of one key as it was before it was
// marked uploaded, as a hub that read it just before another marked it.
type staleStore struct {
	hub.Store
	mu  sync.Mutex
	key string
}

func (s *staleStore) set(key string, stale bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = ""
	if stale {
		s.key = key
	}
}

func (s *staleStore) Upload(ctx context.Context, key string) (hub.Upload, error) {
	u, err := s.Store.Upload(ctx, key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if key == s.key {
		u.UploadedAt = time.Time{}
	}
	return u, err
}
