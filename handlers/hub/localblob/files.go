package localblob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Files on disk: an object with key k is the file dir/k, and its content
// type is in the sidecar dir/k.attrs. The sidecar is a JSON object in the
// form gocloud.dev's fileblob wrote, which earlier versions of the store
// used, so that the files of either are the other's: the store writes and
// reads its "user.content_type" member, and ignores the others (fileblob's
// cache control, content encoding and metadata, which the hub never set,
// and its MD5 of the body, which the hub never read).
const attrsExt = ".attrs"

// fileMode keeps other users of the machine out of uploaded files, as
// dirMode does of their directories.
const fileMode = 0o640

// defaultType is the type of an object without a sidecar, as fileblob
// reported it.
const defaultType = "application/octet-stream"

// errExists is commit's error when the key has an object already.
var errExists = errors.New("the object exists already")

// attrs is what an object's sidecar holds of it.
type attrs struct {
	ContentType string `json:"user.content_type"`
}

// path returns the file of key, which checkKey accepted.
func (s *Store) path(key string) string {
	return filepath.Join(s.dir, filepath.FromSlash(key))
}

// stat returns the size and content type of the object key. An absent
// object gives an error wrapping fs.ErrNotExist.
func (s *Store) stat(key string) (size int64, contentType string, err error) {
	p := s.path(key)
	info, err := os.Stat(p)
	if err != nil {
		return 0, "", err
	}
	if !info.Mode().IsRegular() {
		// A directory holding other keys' files is no object.
		return 0, "", fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	data, err := os.ReadFile(p + attrsExt)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return info.Size(), defaultType, nil
	case err != nil:
		return 0, "", err
	}
	var a attrs
	if err := json.Unmarshal(data, &a); err != nil {
		return 0, "", fmt.Errorf("%s%s: %w", p, attrsExt, err)
	}
	return info.Size(), a.ContentType, nil
}

// exists reports whether key has an object.
func (s *Store) exists(key string) (bool, error) {
	_, _, err := s.stat(key)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// create creates the temporary file a body of key is written to before
// commit makes it the object: dir/k.<hex>.tmp, beside the object, since
// the rename that completes a write fails across file systems.
func (s *Store) create(key string) (*os.File, error) {
	s.dirMu.RLock()
	defer s.dirMu.RUnlock()
	p := s.path(key)
	var f *os.File
	var err error
	for range 2 {
		if err = os.MkdirAll(filepath.Dir(p), dirMode); err == nil {
			f, err = createTemp(p)
		}
		// Another process sharing the directory may have pruned it
		// between our creating it and the temporary file; once more is
		// enough.
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return f, err
}

// createTemp creates a new file named p.<hex>.tmp, the hex a clock reading
// in nanoseconds, as fileblob named its temporary files.
func createTemp(p string) (*os.File, error) {
	for range 100 {
		name := p + "." + strconv.FormatInt(time.Now().UnixNano(), 16) + tmpExt
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("%s.*%s: %w", p, tmpExt, fs.ErrExist)
}

// commit closes the temporary file f, fully written, and makes it the
// object key of type contentType: the sidecar first, then the rename, so
// that the object is never seen without its type. It fails with errExists,
// and leaves the object alone, when key has one already; with ctx's error
// when ctx is done. Either way f is removed.
func (s *Store) commit(ctx context.Context, f *os.File, key, contentType string) error {
	defer os.Remove(f.Name()) // fails once renamed
	if err := f.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch exists, err := s.exists(key); {
	case err != nil:
		return err
	case exists:
		return errExists
	}
	return s.place(f.Name(), key, contentType)
}

// discard closes and removes the temporary file f of a body not stored.
func discard(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// place makes the file data the object key of type contentType: its
// sidecar beside the key's path, then data renamed onto it.
func (s *Store) place(data, key, contentType string) error {
	p := s.path(key)
	sidecar, err := json.Marshal(attrs{ContentType: contentType})
	if err != nil {
		return err
	}
	if err := writeFileAtomic(p+attrsExt, sidecar); err != nil {
		return err
	}
	if err := os.Rename(data, p); err != nil {
		// No object has the sidecar: those placed check first that
		// there is none.
		os.Remove(p + attrsExt)
		return err
	}
	return nil
}

// remove deletes the object key and its sidecar; an absent object is not
// an error.
func (s *Store) remove(key string) error {
	p := s.path(key)
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(p + attrsExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeFileAtomic writes data to a file beside name, then renames it into
// place, so that name is never read half written.
func writeFileAtomic(name string, data []byte) error {
	tmp := name + "." + strconv.FormatInt(time.Now().UnixNano(), 36) + tmpExt
	if err := os.WriteFile(tmp, data, fileMode); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
