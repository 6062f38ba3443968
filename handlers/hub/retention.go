package hub

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// MaxRetentionDays is the longest retention a form may set: a hundred years.
const MaxRetentionDays = 36500

// RetentionStore is implemented by Stores that can delete the submissions
// of the forms that set Settings.RetentionDays (see sqldb.DB).
type RetentionStore interface {
	// SubmissionForms returns the forms that have submissions.
	SubmissionForms(ctx context.Context) ([]hubclient.FormID, error)
	// DeleteSubmissionsBefore deletes at most limit submissions of site and
	// form created before before, oldest first, with their upload records;
	// of hubs running it at once, one deletes and reports each.
	DeleteSubmissionsBefore(ctx context.Context, site, slug string, before time.Time, limit int) (Deleted, error)
}

// retentionBatch is how many submissions one transaction deletes.
const retentionBatch = 100

// ApplyRetention deletes the submissions, and their files, of every form
// that sets RetentionDays and is older than that, and returns how many
// submissions it deleted. A form the hub cannot look up keeps its
// submissions. Several hubs on one database may run it at once.
func (s *Server) ApplyRetention(ctx context.Context) (int, error) {
	store, ok := s.cfg.Store.(RetentionStore)
	if !ok {
		return 0, nil
	}
	keys, err := store.SubmissionForms(ctx)
	if err != nil {
		return 0, err
	}
	deleted := 0
	for _, k := range keys {
		form, err := s.cfg.Forms.Lookup(k.Site, k.Slug)
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				s.cfg.Logger.Warn("retention: form not looked up; its submissions are kept", slog.String("site", k.Site), slog.String("form", k.Slug), slog.Any("error", err))
			}
			continue
		}
		days := form.Settings.RetentionDays
		if days <= 0 {
			continue
		}
		before := s.cfg.Now().Add(-time.Duration(days) * 24 * time.Hour)
		for {
			d, err := store.DeleteSubmissionsBefore(ctx, k.Site, k.Slug, before, retentionBatch)
			if err != nil {
				return deleted, err
			}
			deleted += d.Submissions
			DeleteFiles(ctx, s.cfg.Blobs, d.Files, s.cfg.Logger)
			if d.Submissions == 0 {
				break
			}
		}
	}
	return deleted, nil
}

// DeleteFiles deletes the files of deleted submissions from the storage.
// Their records are gone already, so a file that cannot be deleted is
// only logged: nothing refers to it any more.
func DeleteFiles(ctx context.Context, files interface {
	Delete(ctx context.Context, key string) error
}, keys []string, logger *slog.Logger) {
	for _, key := range keys {
		if err := files.Delete(ctx, key); err != nil && !errors.Is(err, ErrNotFound) {
			logger.WarnContext(ctx, "file of a deleted submission left in storage", slog.String("key", key), slog.Any("error", err))
		}
	}
}
