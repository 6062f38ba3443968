package static

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

// files are the served files. dist/htmx.min.js is the npm package's own
// copy, committed so that the module carries it (see dist/README.md).
//
//go:embed hubform.css hubform.js hubform-upload.js hubform-draft.js hubform-drop.js hubform-ranking.js dist/htmx.min.js
var files embed.FS

// sources maps each served name to its file in the embedded tree. Nothing
// else is served: not dist/README.md, not a directory listing.
var sources = map[string]string{
	"hubform.css":        "hubform.css",
	"hubform.js":         "hubform.js",
	"hubform-upload.js":  "hubform-upload.js",
	"hubform-draft.js":   "hubform-draft.js",
	"hubform-drop.js":    "hubform-drop.js",
	"hubform-ranking.js": "hubform-ranking.js",
	"htmx.min.js":        "dist/htmx.min.js",
}

// immutable is the Cache-Control of a request that names the current version.
const immutable = "public, max-age=31536000, immutable"

// assets is the set the package serves, read once from the embedded files.
var assets = load(files)

// An asset is one served file with its headers computed in advance.
type asset struct {
	data        []byte
	contentType string
	version     string // short content hash: the v query parameter of URL
	etag        string // strong ETag, a longer content hash
	// encodings returns the representations to choose from, compressed
	// ones first, identity (data and etag) last: compressed once, when
	// first asked for, so that a program that never serves the file (a
	// command of hubform's, an app that mounts no handler) never pays for
	// the best levels' time and memory.
	encodings func() []encoding
}

// An assetSet serves assets by name.
type assetSet map[string]*asset

// load reads the files of sources that exist in fsys; a missing one is not
// served.
func load(fsys fs.FS) assetSet { return loadFiles(fsys, sources) }

// loadFiles reads the files that sources names, by served name, from fsys.
func loadFiles(fsys fs.FS, sources map[string]string) assetSet {
	set := make(assetSet, len(sources))
	for name, file := range sources {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			continue
		}
		if path.Ext(name) == ".js" && strings.HasPrefix(name, "hubform") {
			data = []byte(compactScript(string(data)))
		}
		etag := `"` + longHash(data) + `"`
		set[name] = &asset{
			data:        data,
			contentType: contentType(name),
			version:     contentHash(data),
			etag:        etag,
			encodings:   sync.OnceValue(func() []encoding { return encode(data, etag) }),
		}
	}
	return set
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// contentHash returns the short hash of data used to version URLs: the first
// 8 hex digits of its SHA-256.
func contentHash(data []byte) string {
	return longHash(data)[:8]
}

// longHash returns the first 32 hex digits of the SHA-256 of data.
func longHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// Handler returns a handler that serves hubform.css, hubform.js,
// hubform-upload.js (which hubform.js loads when a file is chosen),
// hubform-draft.js (which it loads for a form that offers saving),
// hubform-drop.js (which it loads for a form with a file input's drop
// zone), hubform-ranking.js (which it loads for a form with a ranking)
// and htmx.min.js at the root of its path: /hubform.css, /hubform.js,
// /hubform-upload.js, /hubform-draft.js, /hubform-drop.js,
// /hubform-ranking.js, /htmx.min.js. Mount it with
// [http.StripPrefix]. Any other path is not found.
//
// Each file is compressed once, when first requested, with brotli and
// gzip; a client gets the representation its Accept-Encoding prefers
// (brotli when it takes both), with Vary: Accept-Encoding. Responses carry
// a strong ETag per representation and answer If-None-Match with 304 Not
// Modified. A request whose v query parameter is the version that [URL] gives
// may be cached for a year as immutable; any other is revalidated (no-cache),
// so a link without the version, or with an old one, never holds on to stale
// content.
func Handler() http.Handler {
	return assets
}

func (s assetSet) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a, ok := s[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	encs := a.encodings()
	enc := choose(encs, r.Header.Values("Accept-Encoding"))
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	setEncoding(h, enc, len(encs) > 1)
	h.Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("v") == a.version {
		h.Set("Cache-Control", immutable)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	// ServeContent answers If-None-Match, HEAD and Range requests (a range
	// of the representation sent, as HTTP defines it).
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(enc.data))
}

// url returns name with its version query, or name alone when s lacks it.
func (s assetSet) url(name string) string {
	a, ok := s[name]
	if !ok {
		return name
	}
	return name + "?v=" + a.version
}

// A Set serves other files the way Handler serves the package's own: with
// versioned URLs cached for good, ETags and compression. It suits the
// assets of a program's own pages.
type Set struct{ assets assetSet }

// NewSet returns the Set of the files in fsys that files names: served
// name to path in fsys. A file missing from fsys is not served.
func NewSet(fsys fs.FS, files map[string]string) *Set {
	return &Set{assets: loadFiles(fsys, files)}
}

// URL returns name with the query of its content's version, as [URL]
// does.
func (s *Set) URL(name string) string { return s.assets.url(name) }

// Has reports whether s serves name.
func (s *Set) Has(name string) bool { _, ok := s.assets[name]; return ok }

// ServeHTTP serves the file the request's path names, relative to where s
// is mounted.
func (s *Set) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.assets.ServeHTTP(w, r) }

// URL returns name followed by a query that names the current version of
// its content, for links that browsers may cache for good:
// URL("hubform.css") is "hubform.css?v=" and 8 hex digits. The result is
// relative; prefix it with the path where [Handler] is mounted. A name the
// package does not serve is returned unchanged.
func URL(name string) string {
	return assets.url(name)
}

// Stylesheet returns the contents of hubform.css, for a page to inline in
// a <style> element: a stylesheet linked in the head holds the page's first
// paint until it has arrived, which costs a first visit a request.
func Stylesheet() string { return stylesheet }

// stylesheet is hubform.css as a string, made once, without its comments
// and indentation, a fifth of it, since every page carries it.
var stylesheet = compactCSS(string(assets["hubform.css"].data))

// cssComment matches a CSS comment; hubform.css has no string holding "/*".
var cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)

// compactScript drops the lines of js that hold only a comment, the
// spaces around each line and empty lines: what our scripts say to their
// readers, not to browsers. Line breaks stay, so that no statement is
// joined to the next. It holds for scripts without template literals,
// whose lines it would change (TestScriptsCompact checks there are none).
func compactScript(js string) string {
	var lines []string
	for line := range strings.Lines(js) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "//") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// compactCSS drops css's comments, the spaces around each line and empty
// lines. Line breaks between tokens stay, so nothing is joined that was
// apart.
func compactCSS(css string) string {
	var lines []string
	for line := range strings.Lines(cssComment.ReplaceAllString(css, "")) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}
