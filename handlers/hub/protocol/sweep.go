package protocol

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// MinUploadTTL is the shortest time an unclaimed upload is kept: its URL's
// life plus time for the submission to follow.
const MinUploadTTL = DefaultUploadURLExpiry + uploadGrace

// Sweep deletes the drafts past their expiry, the uploads no submission
// claimed nor draft holds that were recorded more than ttl ago, and the storage's leftovers (see LeftoverSweeper) older
// than ttl, and returns how many it deleted. The record goes first, so
// that no submission can claim a file while it is being deleted.
func (s *Server) Sweep(ctx context.Context, ttl time.Duration) (int, error) {
	if ttl < MinUploadTTL {
		return 0, fmt.Errorf("hub: upload ttl %v is shorter than %v", ttl, MinUploadTTL)
	}
	before := s.cfg.Now().Add(-ttl)
	deleted := 0
	if err := s.deleteExpiredDrafts(ctx); err != nil {
		return deleted, err
	}
	if sweeper, ok := s.cfg.Blobs.(hub.LeftoverSweeper); ok {
		// No upload lasts ttl: a body last written before is a leftover.
		n, err := sweeper.SweepLeftovers(ctx, before)
		if err != nil {
			s.cfg.Logger.Warn("sweep: leftover bodies kept in storage", slog.Any("error", err))
		}
		deleted += n
	}
	for {
		stale, err := s.cfg.Store.StaleUploads(ctx, before, 100)
		if err != nil || len(stale) == 0 {
			return deleted, err
		}
		progress := false
		for _, u := range stale {
			err := s.cfg.Store.DeleteUpload(ctx, u.Key)
			if errors.Is(err, hub.ErrNotFound) || errors.Is(err, hub.ErrUploadClaim) {
				continue // claimed or swept by another node meanwhile
			}
			if err != nil {
				return deleted, err
			}
			progress = true
			if parts, ok := s.cfg.Blobs.(hub.PartUploader); ok && u.PartsID != "" {
				if err := parts.AbortParts(ctx, u); err != nil {
					s.cfg.Logger.Warn("sweep: parts left in storage", slog.String("key", u.Key), slog.Any("error", err))
				}
			}
			if err := s.cfg.Blobs.Delete(ctx, u.Key); err != nil {
				s.cfg.Logger.Warn("sweep: file left in storage", slog.String("key", u.Key), slog.Any("error", err))
			}
			deleted++
		}
		if !progress {
			return deleted, nil
		}
	}
}

// deleteExpiredDrafts deletes the drafts past their expiry, so that the
// uploads they held are swept with the others.
func (s *Server) deleteExpiredDrafts(ctx context.Context) error {
	if s.cfg.Drafts == nil {
		return nil
	}
	for {
		n, err := s.cfg.Drafts.DeleteExpiredDrafts(ctx, s.cfg.Now(), 100)
		if err != nil || n < 100 {
			return err
		}
	}
}

// CountCompactor is implemented by Stores whose counts of submissions
// read fewer rows once compacted (see sqldb.DB.CompactCounts).
type CountCompactor interface {
	CompactCounts(ctx context.Context, before time.Time) (int, error)
}

// compactAfter is the age of the counts a sweep compacts: writers have
// long moved on to later quarters of an hour.
const compactAfter = time.Hour

// RunSweeper sweeps every interval until ctx is done, applies the forms'
// retention (see ApplyRetention), purges the submissions deleted from
// the console whose undo period is over (see PurgeDeleted), and compacts the counts of submissions
// (see CountCompactor), logging what it did.
func (s *Server) RunSweeper(ctx context.Context, interval, ttl time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := s.Sweep(ctx, ttl)
		switch {
		case err != nil && ctx.Err() == nil:
			s.cfg.Logger.Error("sweep failed", slog.Any("error", err))
		case n > 0:
			s.cfg.Logger.Info("swept unsubmitted uploads", slog.Int("count", n))
		}
		n, err = s.ApplyRetention(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.cfg.Logger.Error("retention failed", slog.Any("error", err))
		case n > 0:
			s.cfg.Logger.Info("deleted submissions past their form's retention", slog.Int("count", n))
		}
		n, err = s.PurgeDeleted(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.cfg.Logger.Error("purging deleted submissions failed", slog.Any("error", err))
		case n > 0:
			s.cfg.Logger.Info("purged submissions deleted from the console", slog.Int("count", n))
		}
		if c, ok := s.cfg.Store.(CountCompactor); ok {
			if _, err := c.CompactCounts(ctx, s.cfg.Now().Add(-compactAfter)); err != nil && ctx.Err() == nil {
				s.cfg.Logger.Error("compacting the counts of submissions failed", slog.Any("error", err))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
