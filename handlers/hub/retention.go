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

// UndoPeriod is how long a submission deleted from the console waits
// before it is purged with its files: until then the owner may undo the
// deletion. The admin API and a person's erasure delete at once.
const UndoPeriod = 30 * time.Minute

// TrashStore is implemented by Stores that keep submissions deleted from
// the console for UndoPeriod (see sqldb.DB).
type TrashStore interface {
	// PurgeDeleted removes at most limit submissions deleted before
	// before, with their upload records; of hubs running it at once, one
	// removes and reports each.
	PurgeDeleted(ctx context.Context, before time.Time, limit int) (Deleted, error)
}
