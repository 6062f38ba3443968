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
