package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Keeper lists and removes the backups of a target, for Schedule.Keep.
type Keeper interface {
	// Backups returns the names of the complete backups, oldest first.
	Backups(ctx context.Context) ([]string, error)
	Remove(ctx context.Context, name string) error
}

// Result is what a scheduled backup came to.
type Result struct {
	Name     string
	At       time.Time
	Took     time.Duration
	Manifest Manifest
	// Err is why it failed, nil when it did not.
	Err error
}

// Schedule takes a backup (Copy) every Every, and keeps the newest Keep.
type Schedule struct {
	Copy
	Every time.Duration
	// Keep is how many backups to keep, 0 for all.
	Keep   int
	Logger *slog.Logger
	// Done, when set, is told of each backup's result.
	Done func(Result)
	// Now is the clock, time.Now when nil.
	Now func() time.Time

	mu                sync.Mutex
	last, lastSuccess Result
}

// LockName is the file of the data directory a backup holds locked, so
// that processes on the directory take one at a time.
const LockName = "backup.lock"

// ErrBusy is a backup's error when another process is taking one.
var ErrBusy = errors.New("another backup of this data directory is under way")

// Run takes a backup every Every until ctx is done.
func (s *Schedule) Run(ctx context.Context) {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Once(ctx)
		}
	}
}

// Once takes a backup now, removes those past Keep, and returns its
// result, which Done is told of and the log says.
func (s *Schedule) Once(ctx context.Context) Result {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	r := Result{At: now()}
	r.Name = Name(r.At)
	r.Manifest, r.Err = s.take(ctx, r.Name, r.At)
	r.Took = now().Sub(r.At)
	if r.Err == nil && s.Keep > 0 {
		if err := s.prune(ctx); err != nil {
			s.Logger.WarnContext(ctx, "old backups not removed", slog.Any("err", err))
		}
	}
	s.mu.Lock()
	s.last = r
	if r.Err == nil {
		s.lastSuccess = r
	}
	s.mu.Unlock()
	if r.Err != nil {
		s.Logger.ErrorContext(ctx, "backup failed", slog.String("backup", r.Name), slog.Any("err", r.Err))
	} else {
		s.Logger.InfoContext(ctx, "backup taken", slog.String("backup", r.Name), slog.Int("files", len(r.Manifest.Files)),
			slog.Int64("bytes", r.Manifest.Bytes()), slog.Duration("took", r.Took))
	}
	if s.Done != nil {
		s.Done(r)
	}
	return r
}

// Last returns the last backup's result and the last successful one's;
// zero before any.
func (s *Schedule) Last() (last, success Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.lastSuccess
}

// take takes the backup name, holding the data directory's lock.
func (s *Schedule) take(ctx context.Context, name string, at time.Time) (Manifest, error) {
	unlock, err := Lock(s.DataDir)
	if err != nil {
		return Manifest{}, err
	}
	defer unlock()
	return s.Copy.Take(ctx, name, at)
}

// prune removes the oldest backups past Keep.
func (s *Schedule) prune(ctx context.Context) error {
	k, ok := s.To.(Keeper)
	if !ok {
		return fmt.Errorf("%T cannot remove backups", s.To)
	}
	names, err := k.Backups(ctx)
	if err != nil {
		return err
	}
	for len(names) > s.Keep {
		if err := k.Remove(ctx, names[0]); err != nil {
			return err
		}
		names = names[1:]
	}
	return nil
}

// Lock locks the data directory's backup lock, or returns ErrBusy while
// another process holds it.
func Lock(dataDir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dataDir, LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrBusy
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}

// Backups returns the names of the complete backups in the directory,
// oldest first.
func (d Dir) Backups(ctx context.Context) ([]string, error) {
	entries, err := os.ReadDir(string(d))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "hubform-") {
			if _, err := os.Stat(filepath.Join(string(d), e.Name(), ManifestName)); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// Remove removes the backup name from the directory.
func (d Dir) Remove(ctx context.Context, name string) error {
	if !strings.HasPrefix(name, "hubform-") || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("%q is not a backup's name", name)
	}
	return os.RemoveAll(filepath.Join(string(d), name))
}
