// Package backup copies a hub's data directory, its SQLite database and
// its files, to a directory or a bucket while the hub serves, and restores
// such a copy into an empty data directory, checked file by file.
//
// A backup is a folder named for its time (hubform-20261129T003000Z)
// holding the database as of one moment (SQLite's online backup, never a
// copy of the live file), every other file of the data directory as it
// was when copied (the stored files never change once written, so each is
// whole), and, written last, manifest.json: each file's path, size and
// SHA-256. A folder without its manifest is not a backup.
package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ManifestName is the manifest's name in a backup.
const ManifestName = "manifest.json"

// DatabaseName is the SQLite database's name in the data directory and
// in a backup.
const DatabaseName = "hub.db"

// Format is the manifest's format, which Restore checks.
const Format = 1

// Manifest says what a backup holds.
type Manifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"createdAt"`
	// Schema is the database's migration version.
	Schema int64   `json:"schema"`
	Files  []Entry `json:"files"`
}

// Entry is a file of a backup: its path under the data directory, with
// slashes, its size and SHA-256.
type Entry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Bytes returns the size of the files of m.
func (m Manifest) Bytes() int64 {
	var n int64
	for _, e := range m.Files {
		n += e.Size
	}
	return n
}

// Target is where a backup is written: a directory (Dir) or a bucket
// (Bucket).
type Target interface {
	// Put stores r's size bytes as name, a slash-separated
	// path under the target.
	Put(ctx context.Context, name string, r io.ReadSeeker, size int64) error
}

// Source is where a backup is read from.
type Source interface {
	// Open returns the file name of the backup, or an error wrapping
	// fs.ErrNotExist.
	Open(ctx context.Context, name string) (io.ReadCloser, error)
}

// Snapshotter writes a consistent copy of the hub's database to a file,
// as sqlite.Snapshot does, and tells its schema's version.
type Snapshotter func(ctx context.Context, to string) (schema int64, err error)

// Name returns the name of the backup taken at t.
func Name(t time.Time) string { return "hubform-" + t.UTC().Format("20060102T150405Z") }

// skipped reports whether the data directory's file rel, slash-separated,
// is left out of a backup: the live database and its journals, which the
// snapshot stands for, and the files of writes under way.
func skipped(rel string) bool {
	base := path.Base(rel)
	switch {
	case rel == DatabaseName, strings.HasPrefix(rel, DatabaseName+"-"), rel == LockName:
		return true
	case strings.HasSuffix(base, ".tmp"), strings.HasSuffix(base, ".part"):
		return true
	case strings.HasPrefix(rel, "files/.parts/"):
		// The parts of uploads under way, which end or are swept.
		return true
	}
	return false
}

// Niceness is the scheduling priority a backup's thread runs at: the
// hub's requests come first, and the backup takes the time they leave.
const Niceness = 10

// yielding runs f on a thread of its own whose priority is Niceness, and
// returns once f has. The thread ends with f: a thread whose priority was
// lowered is never given back to run other goroutines, which may not
// raise it again without privileges.
func yielding(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Never unlocked: Go ends the thread with the goroutine.
		runtime.LockOSThread()
		syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), Niceness)
		unix.SchedSetAttr(0, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}, 0)
		unix.Syscall(unix.SYS_IOPRIO_SET, 1, uintptr(syscall.Gettid()), 3<<13)
		f()
	}()
	<-done
}

// Copy is what a backup copies, where to, and how fast.
type Copy struct {
	DataDir  string
	Snapshot Snapshotter
	To       Target
	// MaxRate is the most bytes a second the backup writes, 0 for no
	// limit. A hub's commits wait for the disk to hold what was written
	// before them, the backup's writes included: at the disk's full speed
	// a backup cost a hub of a million submissions a fifth to a quarter
	// of its submissions while it ran.
	MaxRate int64
}

// Take backs up c.DataDir into c.To under name: the database as
// c.Snapshot writes it, then every other file, then the manifest, which
// it returns. A file removed while the backup runs (a file deleted with
// its submission) is left out. It runs at a lower priority (Niceness),
// so that a hub serving beside it comes first.
func (c Copy) Take(ctx context.Context, name string, now time.Time) (m Manifest, err error) {
	yielding(func() { m, err = c.take(ctx, name, now) })
	return m, err
}

// take is Take at the caller's priority.
func (c Copy) take(ctx context.Context, name string, now time.Time) (Manifest, error) {
	m := Manifest{Format: Format, CreatedAt: now.UTC()}
	tmp, err := os.MkdirTemp("", "hubform-backup-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(tmp)
	p := newPace(ctx, c.MaxRate)
	put := func(rel, file string) error {
		e, err := putFile(ctx, c.To, name+"/"+rel, file, p)
		if err != nil {
			return err
		}
		e.Path = rel
		m.Files = append(m.Files, e)
		return nil
	}
	if d, ok := c.To.(Dir); ok {
		// Straight into the backup's directory: the database is not
		// written twice.
		e, schema, err := snapshotInto(ctx, c.Snapshot, d, name+"/"+DatabaseName, p)
		if err != nil {
			return m, err
		}
		m.Schema, m.Files = schema, append(m.Files, e)
	} else {
		db := filepath.Join(tmp, DatabaseName)
		if m.Schema, err = c.Snapshot(ctx, db); err != nil {
			return m, fmt.Errorf("snapshot of the database: %w", err)
		}
		if err := put(DatabaseName, db); err != nil {
			return m, err
		}
	}
	err = filepath.WalkDir(c.DataDir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(c.DataDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skipped(rel) {
			return nil
		}
		if err := put(rel, p); errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		return ctx.Err()
	})
	if err != nil {
		return m, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return m, err
	}
	f := filepath.Join(tmp, ManifestName)
	if err := os.WriteFile(f, data, 0o600); err != nil {
		return m, err
	}
	// The files on disk before the manifest that vouches for them.
	if err := syncTarget(ctx, c.To); err != nil {
		return m, err
	}
	if _, err := putFile(ctx, c.To, name+"/"+ManifestName, f, nil); err != nil {
		return m, fmt.Errorf("writing the manifest: %w", err)
	}
	return m, syncTarget(ctx, c.To)
}

// syncTarget waits for t's storage to hold what it was given, when t can
// tell (Dir); a bucket holds each object once its PUT is answered.
func syncTarget(ctx context.Context, t Target) error {
	if s, ok := t.(interface{ Sync(context.Context) error }); ok {
		if err := s.Sync(ctx); err != nil {
			return fmt.Errorf("syncing the backup: %w", err)
		}
	}
	return nil
}

// snapshotInto has snapshot write the database into the directory d as
// name, through a temporary file renamed once whole, has the disk take it
// at the pace pc, and returns its entry and schema.
func snapshotInto(ctx context.Context, snapshot Snapshotter, d Dir, name string, pc *pace) (Entry, int64, error) {
	p := filepath.Join(string(d), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return Entry{}, 0, err
	}
	schema, err := snapshot(ctx, p+".part")
	if err == nil {
		err = os.Rename(p+".part", p)
	}
	if err != nil {
		os.Remove(p + ".part")
		return Entry{}, 0, fmt.Errorf("snapshot of the database: %w", err)
	}
	f, err := os.Open(p)
	if err != nil {
		return Entry{}, 0, err
	}
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return Entry{}, 0, err
	}
	if err := pacedFlush(f, size, pc); err != nil {
		return Entry{}, 0, err
	}
	return Entry{Path: DatabaseName, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}, schema, nil
}

// putFile puts the file at p to t as name, read at the pace pc (none when
// nil), and returns its size and sum.
func putFile(ctx context.Context, t Target, name, p string, pc *pace) (Entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return Entry{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Entry{}, err
	}
	if err := t.Put(ctx, name, pc.reader(f), size); err != nil {
		return Entry{}, fmt.Errorf("writing %s: %w", name, err)
	}
	return Entry{Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// ErrNotEmpty is Restore's error for a data directory that holds files.
var ErrNotEmpty = errors.New("the data directory is not empty")

// Restore writes the backup src holds into dataDir, which must be empty or
// not exist, each file checked against the manifest's size and SHA-256.
// A backup that does not match its manifest leaves dataDir as it found
// it. The hub opened on dataDir then migrates the database, if older.
func Restore(ctx context.Context, src Source, dataDir string) (Manifest, error) {
	var m Manifest
	entries, err := os.ReadDir(dataDir)
	switch {
	case err == nil && len(entries) > 0:
		return m, fmt.Errorf("%s: %w: restore into an empty one", dataDir, ErrNotEmpty)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return m, err
	}
	r, err := src.Open(ctx, ManifestName)
	if err != nil {
		return m, fmt.Errorf("no %s: not a complete backup: %w", ManifestName, err)
	}
	err = json.NewDecoder(io.LimitReader(r, 1<<30)).Decode(&m)
	r.Close()
	if err != nil {
		return m, fmt.Errorf("%s: %w", ManifestName, err)
	}
	if m.Format != Format {
		return m, fmt.Errorf("%s: format %d, this hubform restores format %d", ManifestName, m.Format, Format)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return m, err
	}
	for _, e := range m.Files {
		if err := restoreFile(ctx, src, dataDir, e); err != nil {
			cleanUp(dataDir)
			return m, err
		}
	}
	return m, nil
}

// restoreFile writes the backup's file e under dataDir, checked.
func restoreFile(ctx context.Context, src Source, dataDir string, e Entry) error {
	if !fs.ValidPath(e.Path) || e.Path == "." {
		return fmt.Errorf("%s names the path %q, outside the data directory", ManifestName, e.Path)
	}
	r, err := src.Open(ctx, e.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", e.Path, err)
	}
	defer r.Close()
	p := filepath.Join(dataDir, filepath.FromSlash(e.Path))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, e.Size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch sum := hex.EncodeToString(h.Sum(nil)); {
	case err != nil:
		return fmt.Errorf("%s: %w", e.Path, err)
	case n != e.Size:
		return fmt.Errorf("%s: %d bytes, the manifest says %d: the backup is damaged", e.Path, n, e.Size)
	case sum != e.SHA256:
		return fmt.Errorf("%s: SHA-256 %s, the manifest says %s: the backup is damaged", e.Path, sum, e.SHA256)
	}
	return nil
}

// cleanUp empties dataDir, which Restore found empty, of what it wrote.
func cleanUp(dataDir string) {
	entries, _ := os.ReadDir(dataDir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dataDir, e.Name()))
	}
}
