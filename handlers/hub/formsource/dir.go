package formsource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// recheck is how long a form is served from memory before its file is
// looked at again.
const recheck = time.Second

// testHookFS, when set, is called before each look at the file system with
// the slash-separated name looked at.
var testHookFS func(name string)

// Dir is a forms directory. Its methods are safe for concurrent use.
type Dir struct {
	path   string
	root   *os.Root
	logger *slog.Logger

	// now and recheck are fields so that tests can move time on.
	now     func() time.Time
	recheck time.Duration

	mu      sync.RWMutex
	entries map[formKey]*entry

	// loadMu makes one goroutine at a time look at the file system, so that
	// a changed file is read and logged once, not by every request at once.
	loadMu sync.Mutex

	// owner, set by Own, is given each site as the directory sees it.
	owner *siteOwner
}

type formKey struct{ site, slug string }

// An entry is a file as last read. Only checked changes after creation; a
// changed file gets a new entry.
type entry struct {
	form *hub.Form
	err  error // an *InvalidError when the file could not be used
	sig  fileSig
	// conflict is set when the file is not served because another
	// workspace owns its site (see SiteConflictError).
	conflict bool
	// checked is when the file was last looked at, in Unix nanoseconds.
	checked atomic.Int64
}

// fileSig is what tells a changed file from an unchanged one.
type fileSig struct {
	modTime int64
	size    int64
}

func sigOf(info fs.FileInfo) fileSig {
	return fileSig{modTime: info.ModTime().UnixNano(), size: info.Size()}
}

// Open serves the forms of the directory dir, which must exist. Files are
// read when first looked up and re-read when they change. Symbolic links
// are followed only within dir. A nil logger means slog.Default().
func Open(dir string, logger *slog.Logger) (*Dir, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("forms directory: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("forms directory %s: not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("forms directory: %w", err)
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Dir{
		path:    dir,
		root:    root,
		logger:  logger,
		now:     time.Now,
		recheck: recheck,
		entries: make(map[formKey]*entry),
	}, nil
}

// Close releases the directory. Lookups after Close fail.
func (d *Dir) Close() error { return d.root.Close() }

// Lookup returns the form of site and slug. The error wraps hub.ErrNotFound
// when there is no such form, including when site or slug is not a
// hub.ValidName, and is an *InvalidError when the form's file exists but
// cannot be served. The form is shared: callers must not modify it.
func (d *Dir) Lookup(site, slug string) (*hub.Form, error) {
	// Checked before anything else: names that could step out of the
	// directory or need escaping never reach the file system.
	if !hub.ValidName(site) || !hub.ValidName(slug) {
		return nil, notFound(site, slug)
	}
	k := formKey{site, slug}
	d.mu.RLock()
	e := d.entries[k]
	d.mu.RUnlock()
	if e != nil && d.fresh(e, d.now()) {
		return e.form, e.err
	}
	return d.reload(k)
}

func (d *Dir) fresh(e *entry, now time.Time) bool {
	return now.UnixNano()-e.checked.Load() < int64(d.recheck)
}

func notFound(site, slug string) error {
	return fmt.Errorf("form %q of site %q: %w", slug, site, hub.ErrNotFound)
}

// reload looks at the file of k and reads it again if it changed.
func (d *Dir) reload(k formKey) (*hub.Form, error) {
	d.loadMu.Lock()
	defer d.loadMu.Unlock()

	d.mu.RLock()
	old := d.entries[k]
	d.mu.RUnlock()
	now := d.now()
	if old != nil && d.fresh(old, now) {
		return old.form, old.err // another goroutine just looked
	}

	name := k.site + "/" + k.slug + ".json"
	if testHookFS != nil {
		testHookFS(name)
	}
	info, err := d.root.Stat(name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		if old != nil {
			d.mu.Lock()
			delete(d.entries, k)
			d.mu.Unlock()
			d.logger.Info("form removed", "path", d.filePath(name))
		}
		return nil, notFound(k.site, k.slug)
	}
	// The site is the directory's workspace's before any of its forms is
	// served, so that no other workspace can claim it and read what they
	// receive.
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	claimErr := d.claim(ctx, k.site)
	cancel()
	var conflict *SiteConflictError
	if claimErr != nil && !errors.As(claimErr, &conflict) {
		return nil, fmt.Errorf("form %q of site %q: %w", k.slug, k.site, claimErr)
	}
	if err == nil && old != nil && sigOf(info) == old.sig && old.conflict == (conflict != nil) {
		old.checked.Store(now.UnixNano())
		return old.form, old.err
	}

	var e *entry
	if conflict != nil {
		e = &entry{err: &InvalidError{Path: d.filePath(name), Err: conflict}, conflict: true}
		if err == nil {
			e.sig = sigOf(info)
		}
	} else {
		e = d.read(k, name, info, err)
	}
	e.checked.Store(now.UnixNano())
	d.mu.Lock()
	d.entries[k] = e
	d.mu.Unlock()

	switch {
	case e.err != nil:
		// Once per change: a file that stays broken is not logged again.
		if old == nil || old.err == nil || old.sig != e.sig || old.conflict != e.conflict {
			d.logger.Error("form not served", "path", d.filePath(name), "err", e.err.(*InvalidError).Err)
		}
	case old != nil:
		d.logger.Info("form reloaded", "path", d.filePath(name))
	}
	return e.form, e.err
}

// read reads and parses the file name, whose Stat failed with statErr or
// found it changed.
func (d *Dir) read(k formKey, name string, info fs.FileInfo, statErr error) *entry {
	e := new(entry)
	fail := func(err error) *entry {
		e.err = &InvalidError{Path: d.filePath(name), Err: err}
		return e
	}
	if statErr != nil {
		return fail(statErr)
	}
	if !info.Mode().IsRegular() {
		// Checked before opening too: opening a named pipe would block.
		e.sig = sigOf(info)
		return fail(errors.New("not a regular file"))
	}
	f, err := d.root.Open(name)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	// The signature comes from the open file, before reading it: a change
	// made while reading then shows at the next look.
	info, err = f.Stat()
	if err != nil {
		return fail(err)
	}
	e.sig = sigOf(info)
	if !info.Mode().IsRegular() {
		return fail(errors.New("not a regular file"))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return fail(err)
	}
	form, err := Parse(k.site, k.slug, data)
	if err != nil {
		return fail(err)
	}
	form.ModTime = info.ModTime()
	e.form = form
	return e
}

func (d *Dir) filePath(name string) string {
	return filepath.Join(d.path, filepath.FromSlash(name))
}

// Forms returns every form of the directory that can be served, sorted by
// site then slug, and an *InvalidError for each file that cannot. Files and
// directories whose names are not hub.ValidName (hidden ones among them)
// are skipped, except *.json files in a site's directory, which are
// reported because they look like forms that would never be served.
// The forms are shared, as with Lookup.
func (d *Dir) Forms() ([]*hub.Form, []error) {
	var (
		forms []*hub.Form
		errs  []error
		seen  = make(map[formKey]bool)
	)
	sites, err := d.readDir(".")
	if err != nil {
		return nil, []error{&InvalidError{Path: d.path, Err: err}}
	}
	for _, site := range sites {
		if !hub.ValidName(site.Name()) || site.Type().IsRegular() {
			continue
		}
		files, err := d.readDir(site.Name())
		if errors.Is(err, syscall.ENOTDIR) {
			continue // a link to a file
		}
		if err != nil {
			errs = append(errs, &InvalidError{Path: d.filePath(site.Name()), Err: err})
			continue
		}
		for _, file := range files {
			slug, ok := strings.CutSuffix(file.Name(), ".json")
			if !ok || strings.HasPrefix(slug, ".") {
				continue
			}
			if !hub.ValidName(slug) {
				errs = append(errs, &InvalidError{
					Path: d.filePath(site.Name() + "/" + file.Name()),
					Err:  fmt.Errorf("%q is not a valid form slug; the form cannot be served", slug),
				})
				continue
			}
			k := formKey{site.Name(), slug}
			seen[k] = true
			form, err := d.Lookup(k.site, k.slug)
			switch {
			case errors.Is(err, hub.ErrNotFound):
				// Removed since the directory was read.
			case err != nil:
				errs = append(errs, err)
			default:
				forms = append(forms, form)
			}
		}
	}

	// Forget the files that are gone, which no lookup may ask for again.
	d.mu.Lock()
	for k := range d.entries {
		if !seen[k] {
			delete(d.entries, k)
		}
	}
	d.mu.Unlock()

	// Directory order is by file name, where "a-b.json" comes before
	// "a.json"; listings want "a" before "a-b".
	slices.SortFunc(forms, func(a, b *hub.Form) int {
		if c := strings.Compare(a.Site, b.Site); c != 0 {
			return c
		}
		return strings.Compare(a.Slug, b.Slug)
	})
	return forms, errs
}

// Sites returns the directory's sites: the names of its subdirectories that
// are hub.ValidName, sorted.
func (d *Dir) Sites() ([]string, error) {
	entries, err := d.readDir(".")
	if err != nil {
		return nil, &InvalidError{Path: d.path, Err: err}
	}
	var sites []string
	for _, e := range entries {
		if hub.ValidName(e.Name()) && !e.Type().IsRegular() {
			if _, err := d.readDir(e.Name()); err == nil {
				sites = append(sites, e.Name())
			}
		}
	}
	return sites, nil
}

func (d *Dir) readDir(name string) ([]fs.DirEntry, error) {
	if testHookFS != nil {
		testHookFS(name)
	}
	f, err := d.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	// Sorted, so that errors come in the same order every time.
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
