package delivery

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river/rivertype"
)

// logFailure logs a failed attempt: at Info while it will be retried, at
// Warn for the last, after which the delivery is failed.
func logFailure(log *slog.Logger, job *rivertype.JobRow, err error) {
	if job.Attempt >= job.MaxAttempts {
		log.Warn("delivery failed: its last attempt failed", "error", err, "attempts", job.Attempt)
		return
	}
	log.Info("delivery attempt failed; to be retried", "error", err)
}

// minLevel drops records below min: River logs every failed attempt at
// Info, which the workers already log with the delivery's details.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
