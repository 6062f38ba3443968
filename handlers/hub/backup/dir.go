package backup

import (
	"context"
	"io"
	"os"
	"path/filepath"
)

// Dir is a directory backups are written to, or one backup read from.
type Dir string

// Put copies f into the directory as name, through a temporary file
// renamed once whole.
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
	if err == nil {
		err = out.Sync()
	}
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
