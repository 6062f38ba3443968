package localblob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
)

// Limits of Open and SignedPutURL.
const (
	// MinSecretLen is the shortest HMAC secret Open accepts, in bytes.
	MinSecretLen = 32
	// MaxExpiry is the longest life of a signed URL.
	MaxExpiry = 15 * time.Minute
	// maxKeyLen keeps keys within what file systems take as a path.
	maxKeyLen = 1024
	// dirMode keeps other users of the machine out of uploaded files.
	dirMode = 0o750
)

// errInvalidKey is a key that could name a path outside the directory, or
// collide with the files kept beside objects.
var errInvalidKey = errors.New("invalid object key")

// Store keeps files under a directory and signs upload URLs that point at
// the hub's PUT endpoint. A Store is safe for concurrent use.
type Store struct {
	signer *signer
	// dir is the directory's absolute path.
	dir string
	// now is the clock of expiry checks and upload times.
	now func() time.Time
	log *slog.Logger

	// dirMu keeps prune from removing a directory a writer has just
	// created and not yet put its temporary file in. Writers share it for
	// the instant of creating that file, never across a body.
	dirMu sync.RWMutex

	// busy holds the keys being uploaded, so that a second PUT of the same
	// key is refused instead of racing the first.
	busyMu sync.Mutex
	busy   map[string]bool
}

// Open opens (creating if needed) the directory dir as a store. putURL is
// the absolute URL of the hub's PUT endpoint as clients reach it (e.g.
// "http://127.0.0.1:8081/v1/_uploads"); secret, of at least MinSecretLen
// bytes, keys the HMAC, so several hub processes sharing the secret verify
// each other's URLs.
func Open(ctx context.Context, dir, putURL string, secret []byte) (*Store, error) {
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("localblob: secret is %d bytes, want at least %d", len(secret), MinSecretLen)
	}
	u, err := url.Parse(putURL)
	if err != nil {
		return nil, fmt.Errorf("localblob: PUT URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("localblob: PUT URL %q: want an absolute http or https URL without query or fragment", putURL)
	}
	if dir == "" {
		return nil, errors.New("localblob: no directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("localblob: %w", err)
	}
	s := &Store{dir: abs, now: time.Now, log: slog.Default(), busy: make(map[string]bool)}
	// The signer reads the Store's clock through a closure so that the
	// clock can be replaced after Open.
	s.signer = &signer{base: *u, secret: append([]byte(nil), secret...), now: func() time.Time { return s.now() }}
	if err := os.MkdirAll(abs, dirMode); err != nil {
		return nil, fmt.Errorf("localblob: open %s: %w", abs, err)
	}
	return s, nil
}

// Close does nothing: a Store holds no file open between calls. It is
// there so that a Store closes as the hub's other storage does.
func (s *Store) Close() error { return nil }

// SignedPutURL returns a URL for PUT of u.Key that expires after expiry,
// which must be positive and at most MaxExpiry. The URL binds only the key:
// PutHandler takes the size and type from the upload record.
func (s *Store) SignedPutURL(ctx context.Context, u hub.Upload, expiry time.Duration) (string, error) {
	key := u.Key
	if expiry <= 0 || expiry > MaxExpiry {
		return "", fmt.Errorf("localblob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	}
	if err := checkKey(key); err != nil {
		return "", err
	}
	return s.signer.sign(key, http.MethodPut, "", expiry), nil
}

// Attributes returns the size and content type of the object key. An
// absent object gives an error wrapping hub.ErrNotFound.
func (s *Store) Attributes(ctx context.Context, key string) (size int64, contentType string, err error) {
	if err := checkKey(key); err != nil {
		return 0, "", err
	}
	size, contentType, err = s.stat(key)
	if err != nil {
		return 0, "", notFound(key, err)
	}
	return size, contentType, nil
}

// Put stores body, of size bytes and type contentType, as the object key,
// which must not exist yet: the hub's own files, such as a theme's
// pictures, which no signed URL names.
func (s *Store) Put(ctx context.Context, key, contentType string, body io.ReadSeeker, size int64) error {
	if err := checkKey(key); err != nil {
		return err
	}
	f, err := s.create(key)
	if err != nil {
		return fmt.Errorf("localblob: put %q: %w", key, err)
	}
	n, err := io.Copy(f, body)
	if err == nil && n != size {
		err = fmt.Errorf("%d bytes, want %d", n, size)
	}
	if err != nil {
		discard(f)
		return fmt.Errorf("localblob: put %q: %w", key, err)
	}
	if err := s.commit(ctx, f, key, contentType); err != nil {
		return fmt.Errorf("localblob: put %q: %w", key, err)
	}
	return nil
}

// NewReader returns a reader of the object key's bytes; the caller closes
// it. An absent object gives an error wrapping hub.ErrNotFound.
func (s *Store) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	f, err := os.Open(s.path(key))
	if err == nil {
		var info fs.FileInfo
		if info, err = f.Stat(); err == nil && !info.Mode().IsRegular() {
			err = fs.ErrNotExist
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, notFound(key, err)
	}
	return f, nil
}

// Delete removes the object key. An absent object is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.remove(key); err != nil {
		return fmt.Errorf("localblob: delete %q: %w", key, err)
	}
	s.prune(key)
	return nil
}

// tmpExt ends the name of the file a body is written to before it is
// renamed into place: dir/k.<hex>.tmp. No key ends so (see checkKey).
const tmpExt = ".tmp"

// SweepLeftovers deletes the temporary files of uploads, and the parts of
// uploads in parts, last written before before, and returns how many files
// it deleted. A body is written to a temporary file only while it arrives;
// one that stays is what a process killed during an upload leaves. Parts
// are deleted when joined, or when the hub's sweep aborts their upload;
// older ones belong to an upload whose record is gone.
func (s *Store) SweepLeftovers(ctx context.Context, before time.Time) (int, error) {
	var stale []string
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), tmpExt) && !s.partsLeftover(p) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(before) {
			stale = append(stale, p)
		}
		return nil
	})
	deleted := 0
	for _, p := range stale {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
			continue
		}
		deleted++
		if rel, rerr := filepath.Rel(s.dir, p); rerr == nil {
			s.prune(filepath.ToSlash(rel))
		}
	}
	if err != nil {
		return deleted, fmt.Errorf("localblob: sweeping temporary files: %w", err)
	}
	return deleted, nil
}

// prune removes the now empty directories that held key, deepest first,
// stopping at the first one still in use and never removing the root.
func (s *Store) prune(key string) {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	for d := path.Dir(key); d != "." && d != "/"; d = path.Dir(d) {
		if os.Remove(filepath.Join(s.dir, filepath.FromSlash(d))) != nil {
			return
		}
	}
}

// claim marks key as being uploaded; it reports false when it already was.
func (s *Store) claim(key string) bool {
	s.busyMu.Lock()
	defer s.busyMu.Unlock()
	if s.busy[key] {
		return false
	}
	s.busy[key] = true
	return true
}

func (s *Store) release(key string) {
	s.busyMu.Lock()
	defer s.busyMu.Unlock()
	delete(s.busy, key)
}

// notFound wraps hub.ErrNotFound into err when it says the object is absent.
func notFound(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("localblob: %q: %w", key, hub.ErrNotFound)
	}
	return fmt.Errorf("localblob: %q: %w", key, err)
}

// checkKey accepts keys that map to one obvious path under the directory:
// slash-separated, no empty, "." or ".." element, no backslash or control
// character, and not ending in ".attrs" or ".tmp", the suffixes of
// sidecars and temporary files. These are also the keys that gocloud.dev's
// fileblob, which earlier versions of the store used, kept under their own
// names rather than escaping them, so both find the same files.
func checkKey(key string) error {
	bad := func(why string) error { return fmt.Errorf("localblob: key %q: %w: %s", key, errInvalidKey, why) }
	switch {
	case key == "":
		return bad("empty")
	case len(key) > maxKeyLen:
		return bad("too long")
	case !utf8.ValidString(key):
		return bad("not UTF-8")
	case strings.HasSuffix(key, attrsExt):
		return bad(`ends in ".attrs"`)
	case strings.HasSuffix(key, tmpExt):
		return bad(`ends in ".tmp"`)
	case strings.HasPrefix(key, partsPrefix):
		return bad(`starts with "` + partsPrefix + `", where parts are kept`)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return bad("control character or backslash")
		}
	}
	for elem := range strings.SplitSeq(key, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return bad(`empty, "." or ".." element`)
		}
	}
	return nil
}
