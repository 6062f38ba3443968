package hubserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

// BackupConfig schedules the hub's backups (package backup).
type BackupConfig struct {
	// Every is the period between backups, 0 for none.
	Every time.Duration
	// To is where they go: a directory, or s3://BUCKET/PREFIX?QUERY.
	To string
	// Keep is how many to keep, 0 for all.
	Keep int
	// MaxRate is the most bytes a second a backup writes, 0 for no limit
	// (backup.Copy).
	MaxRate int64
}

// openBackups schedules the backups cfg asks for, nil for none. Their
// results go to the metrics, and the first failure after a success by
// e-mail to the admins of the default workspace, the hub's own, when the
// hub sends e-mail.
func (h *Hub) openBackups(ctx context.Context, cfg Config, logger *slog.Logger) (*backup.Schedule, error) {
	b := cfg.Backup
	switch {
	case b.Every == 0:
		return nil, nil
	case b.Every < time.Second:
		return nil, errors.New("--backup-every: want a period of 1s or more")
	case b.To == "":
		return nil, errors.New("--backup-every needs --backup-to, where the backups go")
	case b.Keep < 0:
		return nil, errors.New("--backup-keep: want 0 (keep all) or more")
	case b.MaxRate < 0:
		return nil, errors.New("--backup-max-rate: want 0 (no limit) or more")
	case h.DB.Shared():
		return nil, errors.New("--backup-every backs up a hub on SQLite; on PostgreSQL, use pg_dump and the bucket's versioning (OPERATIONS.md, Backups)")
	}
	to, where, err := backup.Open(ctx, b.To)
	if err != nil {
		return nil, fmt.Errorf("--backup-to: %w", err)
	}
	s := &backup.Schedule{
		Copy: backup.Copy{
			DataDir: cfg.Data, To: to, MaxRate: b.MaxRate,
			Snapshot: func(ctx context.Context, file string) (int64, error) {
				return sqlite.Snapshot(ctx, filepath.Join(cfg.Data, backup.DatabaseName), file)
			},
		},
		Every: b.Every, Keep: b.Keep, Logger: logger.With(slog.String("to", where)),
	}
	// The first failure after a success (or the start) is mailed; those
	// that follow it are in the log and the metrics.
	failing := false
	s.Done = func(r backup.Result) {
		h.metrics.BackupDone(r.At, r.Err == nil)
		if r.Err != nil && !failing {
			h.mailBackupFailure(context.WithoutCancel(ctx), r, where, logger)
		}
		failing = r.Err != nil
	}
	return s, nil
}

// mailBackupFailure tells the admins of the default workspace that the
// backup r failed, at the addresses they proved, when the hub sends
// e-mail.
func (h *Hub) mailBackupFailure(ctx context.Context, r backup.Result, where string, logger *slog.Logger) {
	mailer, from := h.queue.Mailer()
	if mailer == nil {
		return
	}
	members, err := h.DB.Members(ctx, accounts.DefaultWorkspace)
	if err != nil {
		logger.ErrorContext(ctx, "the backup's failure not mailed", slog.Any("err", err))
		return
	}
	body := fmt.Sprintf("The backup %s of the hub at %s, to %s, failed at %s:\n\n%v\n\n"+
		"The hub takes the next one as scheduled, and writes again only once one has succeeded; the hub's log says more. "+
		"The last backup that succeeded is the newest one in %s.\n",
		r.Name, h.URL, where, r.At.UTC().Format(time.RFC1123), r.Err, where)
	for _, m := range members {
		if m.Role != accounts.Admin {
			continue
		}
		// An address is someone's only once proved.
		if u, err := h.DB.User(ctx, m.Email); err != nil || !u.Proved() {
			continue
		}
		msg := gomail.NewMsg()
		if err := errors.Join(msg.From(from), msg.To(m.Email)); err != nil {
			logger.ErrorContext(ctx, "the backup's failure not mailed", slog.String("to", m.Email), slog.Any("err", err))
			continue
		}
		msg.Subject("hubform: a backup failed")
		msg.SetBodyString(gomail.TypeTextPlain, body)
		sendCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		if err := mailer.Send(sendCtx, msg); err != nil {
			logger.ErrorContext(ctx, "the backup's failure not mailed", slog.String("to", m.Email), slog.Any("err", err))
		}
		cancel()
	}
}
