package protocol

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// retentionBatch is how many submissions one transaction deletes.
const retentionBatch = 100

// ApplyRetention deletes the submissions, and their files, of every form
// that sets RetentionDays and is older than that, and returns how many
// submissions it deleted. A form the hub cannot look up keeps its
// submissions. Several hubs on one database may run it at once.
func (s *Server) ApplyRetention(ctx context.Context) (int, error) {
	store, ok := s.cfg.Store.(hub.RetentionStore)
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
			if !errors.Is(err, hub.ErrNotFound) {
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
			hub.DeleteFiles(ctx, s.cfg.Blobs, d.Files, s.cfg.Logger)
			if d.Submissions == 0 {
				break
			}
		}
	}
	return deleted, nil
}

// PurgeDeleted removes the submissions deleted from the console longer
// than hub.UndoPeriod ago, whose deletion can no longer be undone, with
// their files, and returns how many it removed. Several hubs on one
// database may run it at once.
func (s *Server) PurgeDeleted(ctx context.Context) (int, error) {
	store, ok := s.cfg.Store.(hub.TrashStore)
	if !ok {
		return 0, nil
	}
	before := s.cfg.Now().Add(-hub.UndoPeriod)
	purged := 0
	for {
		d, err := store.PurgeDeleted(ctx, before, retentionBatch)
		if err != nil {
			return purged, err
		}
		purged += d.Submissions
		hub.DeleteFiles(ctx, s.cfg.Blobs, d.Files, s.cfg.Logger)
		if d.Submissions == 0 {
			return purged, nil
		}
	}
}
