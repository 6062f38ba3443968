package backup

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Dir is a directory backups are written to, or one backup read from.
type Dir string

// Put copies f into the directory as name, through a temporary file
// renamed once whole. It does not wait for the disk: a backup cut short by
// a crash has files the manifest's sums refuse, and syncing each file
// would take the disk from the hub's commits.
func (d Dir) Put(ctx context.Context, name string, f *os.File, size int64) error {
	p := filepath.Join(string(d), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(p+".part", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, f)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p+".part", p)
	}
	if err != nil {
		os.Remove(p + ".part")
	}
	return err
}

// Open opens the file name of the backup the directory is.
func (d Dir) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(string(d), filepath.FromSlash(name)))
}

// Sync waits until what the directory's file system was given is on its
// disk: once for a backup's files, once for its manifest.
func (d Dir) Sync(ctx context.Context) error {
	f, err := os.Open(string(d))
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
