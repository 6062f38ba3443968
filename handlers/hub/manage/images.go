package manage

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/images"
)

// ImageStore records the themes' pictures, as sqldb.DB does.
type ImageStore interface {
	// AddImage records img unless its workspace keeps limit pictures,
	// when the error wraps hub.ErrQuota.
	AddImage(ctx context.Context, img hub.Image, limit int) error
	// DeleteImage forgets the picture of key.
	DeleteImage(ctx context.Context, key string) error
	Workspace(ctx context.Context, name string) (accounts.Workspace, error)
	WorkspaceUsage(ctx context.Context, workspace string, monthStart time.Time) (accounts.Usage, error)
}

// ImageFiles is the file storage the pictures go to, as
// localblob.Store and s3blob.Bucket are.
type ImageFiles interface {
	Put(ctx context.Context, key, contentType string, body io.ReadSeeker, size int64) error
}

// Images takes the pictures of themes, a form's logo and cover or a
// brand's, into the hub's file storage, which serves them at its public
// address (package images).
type Images struct {
	guard
	store   ImageStore
	files   ImageFiles
	baseURL string
}

// MaxImages bounds the pictures a workspace keeps.
const MaxImages = 200

// NewImages returns the pictures' service on store and files, for a hub
// whose public address is baseURL.
func NewImages(cfg Config, store ImageStore, files ImageFiles, baseURL string) *Images {
	return &Images{guard: newGuard(cfg), store: store, files: files, baseURL: baseURL}
}

// addImages is what adding a picture needs: what designing a form needs.
var addImages = Need{Role: accounts.Editor, Scope: accounts.ScopeForms}

// Add stores the picture body reads, of at most images.MaxBytes, for the
// actor's workspace, and returns its address. A file that is not a
// picture of a type taken, too large, or past the workspace's MaxImages is
// refused with 422 and a message a person can read.
func (s *Images) Add(ctx context.Context, a Actor, body io.Reader) (string, error) {
	if err := s.allow(a, addImages); err != nil {
		return "", err
	}
	data, err := io.ReadAll(io.LimitReader(body, images.MaxBytes+1))
	if err != nil {
		return "", hub.Errorf(http.StatusBadRequest, "The picture did not arrive whole: send it again.")
	}
	contentType, key, err := images.Check(data)
	if err != nil {
		return "", err
	}
	img := hub.Image{Key: key, Workspace: a.Workspace, ContentType: contentType, Size: int64(len(data)), CreatedAt: s.cfg.Now()}
	if err := s.withinQuota(ctx, img); err != nil {
		return "", err
	}
	// Recorded first: a picture stored and not recorded would be kept by
	// the storage for no one, one recorded and not stored is not served.
	switch err := s.store.AddImage(ctx, img, MaxImages); {
	case errors.Is(err, hub.ErrQuota):
		return "", hub.Errorf(http.StatusUnprocessableEntity, "This workspace keeps %d pictures already, the most it may.", MaxImages)
	case err != nil:
		return "", hub.Internal("recording a picture", err)
	}
	if err := s.files.Put(ctx, key, contentType, bytes.NewReader(data), img.Size); err != nil {
		// Not stored, so not kept: it counts for nothing.
		if derr := s.store.DeleteImage(ctx, key); derr != nil {
			err = errors.Join(err, derr)
		}
		return "", hub.Internal("storing a picture", err)
	}
	s.record(ctx, a, accounts.ActionImageAdded, key, contentType)
	return images.URL(s.baseURL, key), nil
}

// withinQuota refuses img when its bytes would take its workspace past
// the bytes of files its quota allows (accounts.Quota.StoredBytes), as a
// submission's files would be.
func (s *Images) withinQuota(ctx context.Context, img hub.Image) error {
	w, err := s.store.Workspace(ctx, img.Workspace)
	if err != nil {
		return hub.Internal("reading a workspace's quota", err)
	}
	if w.Quota.StoredBytes <= 0 {
		return nil
	}
	u, err := s.store.WorkspaceUsage(ctx, img.Workspace, accounts.MonthStart(s.cfg.Now()))
	if err != nil {
		return hub.Internal("reading a workspace's usage", err)
	}
	if u.StoredBytes+img.Size > w.Quota.StoredBytes {
		return hub.Errorf(http.StatusUnprocessableEntity, "This workspace's files and pictures take all the room its quota allows: delete some, or ask the hub's operator for more.")
	}
	return nil
}
