package formsource

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// Record is a form kept in the hub's database, without its versions.
type Record struct {
	Site string `json:"site"`
	Slug string `json:"slug"`
	// LastVersion is the newest version's number; versions count from 1.
	LastVersion int64 `json:"lastVersion"`
	// LiveVersion is the published version, 0 while none is.
	LiveVersion int64 `json:"liveVersion"`
	// Draft is whether the newest version was never published: a save
	// from the console overwrites it rather than adding a version.
	Draft bool `json:"draft"`
	// Revision counts the form's saves, an overwrite of the draft as a new
	// version: what a page built from the form carries to say which form
	// it shows.
	Revision  int64     `json:"revision"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// PublishedAt is when a version was last published; zero before.
	PublishedAt time.Time `json:"publishedAt,omitzero"`
}

// Saved is what a save of a form's draft did.
type Saved struct {
	// Version is the draft's number; New is whether the save started it.
	Version int64
	New     bool
	// Revision is the form's revision after the save.
	Revision int64
}

// ErrChanged is wrapped by a save or a publish of a form refused because
// the form was saved since the revision the caller named.
var ErrChanged = errors.New("the form was saved since")

// Version is one saved version of a form kept in the database. The newest
// version changes while it is a draft (see [Record.Draft]); a version
// that was published, and every version before it, never changes again.
type Version struct {
	Site    string `json:"site"`
	Slug    string `json:"slug"`
	Version int64  `json:"version"`
	// Body is the form file as saved: the schema plus its member "hub". It
	// is left empty by listings.
	Body      []byte    `json:"-"`
	CreatedAt time.Time `json:"createdAt"`
	// CreatedBy names who saved it, such as an API token's name.
	CreatedBy string `json:"createdBy"`
	// SavedAt and SavedBy are its last save: its first, unless it was
	// saved again as a draft.
	SavedAt time.Time `json:"savedAt"`
	SavedBy string    `json:"savedBy"`
}

// VersionReader is what a [Stored] reads forms from: the hub's database (see
// package sqldb).
type VersionReader interface {
	// LiveVersion returns the number of the form's published version, or
	// an error wrapping hub.ErrNotFound when the form is not in the
	// database or has no published version.
	LiveVersion(ctx context.Context, site, slug string) (int64, error)
	// FormVersion returns one version with its body, or an error wrapping
	// hub.ErrNotFound.
	FormVersion(ctx context.Context, site, slug string, version int64) (Version, error)
}

// lookupTimeout bounds the database queries of one lookup: the hub's
// Forms interface carries no context.
const lookupTimeout = 10 * time.Second

// Stored serves the published versions of the forms kept in the database.
// Each lookup asks the database which version is live, so a version
// published through any hub is served by every hub at its next request;
// only the parsed versions are kept in memory, by number, which is safe
// because a version that was published never changes.
type Stored struct {
	src    VersionReader
	logger *slog.Logger

	mu     sync.Mutex
	parsed map[versionKey]*hub.Form
}

type versionKey struct {
	site, slug string
	version    int64
}

// maxParsed bounds the parsed versions kept; past it the memory starts
// over, which costs a parse per form.
const maxParsed = 1024

// NewStored returns a Stored over src. A nil logger means slog.Default().
func NewStored(src VersionReader, logger *slog.Logger) *Stored {
	if logger == nil {
		logger = slog.Default()
	}
	return &Stored{src: src, logger: logger, parsed: make(map[versionKey]*hub.Form)}
}

// Lookup returns the published version of the form, an error wrapping
// hub.ErrNotFound, or another error when the database cannot be read or
// the stored version no longer validates. The form is shared: callers must
// not modify it.
func (s *Stored) Lookup(site, slug string) (*hub.Form, error) {
	if !hub.ValidName(site) || !hub.ValidName(slug) {
		return nil, notFound(site, slug)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	n, err := s.src.LiveVersion(ctx, site, slug)
	if err != nil {
		return nil, err
	}
	k := versionKey{site, slug, n}
	s.mu.Lock()
	form := s.parsed[k]
	s.mu.Unlock()
	if form != nil {
		return form, nil
	}
	v, err := s.src.FormVersion(ctx, site, slug, n)
	if err != nil {
		return nil, err
	}
	form, err = Parse(site, slug, v.Body)
	if err != nil {
		// Saved versions were validated; one that fails now was saved by
		// an older hub whose rules were looser.
		err = &InvalidError{Path: fmt.Sprintf("database form %s/%s version %d", site, slug, n), Err: err}
		s.logger.Error("form not served", "site", site, "slug", slug, "version", n, "err", err)
		return nil, err
	}
	form.ModTime, form.Version = v.SavedAt, n
	if form.ModTime.IsZero() {
		form.ModTime = v.CreatedAt
	}
	s.mu.Lock()
	if len(s.parsed) >= maxParsed {
		clear(s.parsed)
	}
	s.parsed[k] = form
	s.mu.Unlock()
	return form, nil
}

// Layered serves the forms of a directory and those of the database side
// by side. The directory wins: a site and slug that it holds, even in a
// file that does not validate, is looked up there alone, and cannot be
// saved to the database (see [Layered.InDirectory]).
type Layered struct {
	// Dir is the forms directory; nil when there is none.
	Dir *Dir
	// Stored is the database's forms.
	Stored *Stored
	// Brands, when set, tells each site's brand, which its forms inherit
	// (hubclient.Theme.Inherit), read again after BrandTTL.
	Brands BrandReader
	// Now is the clock of the brands kept, time.Now when nil.
	Now func() time.Time

	branded brands
}

// BrandChanged tells l that a workspace's brand changed: it reads every
// site's brand again at its next lookup.
func (l *Layered) BrandChanged() { l.branded.forget() }

// Lookup returns the directory's form of site and slug when it has one,
// else the database's, with the brand of the workspace that owns site.
func (l *Layered) Lookup(site, slug string) (*hub.Form, error) {
	form, err := l.lookup(site, slug)
	if err != nil || l.Brands == nil {
		return form, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	brand, err := l.branded.of(ctx, l.Brands, site, now())
	if err != nil {
		return nil, err
	}
	return l.branded.apply(form, brand)
}

// lookup is Lookup without the brand.
func (l *Layered) lookup(site, slug string) (*hub.Form, error) {
	if l.Dir != nil {
		form, err := l.Dir.Lookup(site, slug)
		if !errors.Is(err, hub.ErrNotFound) {
			return form, err
		}
	}
	return l.Stored.Lookup(site, slug)
}

// InDirectory reports whether the forms directory holds a file for site
// and slug, valid or not.
func (l *Layered) InDirectory(site, slug string) bool {
	if l.Dir == nil {
		return false
	}
	_, err := l.Dir.Lookup(site, slug)
	return !errors.Is(err, hub.ErrNotFound)
}

// HoldsSite reports whether the forms directory holds site: a site whose
// forms belong to the workspace that serves the directory alone (see
// [Dir.Own]).
func (l *Layered) HoldsSite(site string) bool {
	return l.Dir != nil && l.Dir.HoldsSite(site)
}

// Forms returns the forms of the directory, for the console's listing.
// Database forms are listed by the admin API.
func (l *Layered) Forms() ([]*hub.Form, []error) {
	if l.Dir == nil {
		return nil, nil
	}
	return l.Dir.Forms()
}
