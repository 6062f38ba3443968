package hub

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"strings"
	"unicode"
)

// NewUploadKey returns a fresh object key for a file of a form:
// uploads/<site>/<slug>/<random>/<safe-filename>. The random element makes
// keys unguessable and lets two files of the same name coexist.
func NewUploadKey(site, slug, filename string) string {
	var r [12]byte
	rand.Read(r[:])
	return "uploads/" + site + "/" + slug + "/" + hex.EncodeToString(r[:]) + "/" + SafeFilename(filename)
}

// reservedExts are the endings of the files local storage keeps beside an
// object: its attributes (".attrs") and the body while it arrives (".tmp").
// A key ending so could not be stored, or would be taken for such a file.
var reservedExts = []string{".attrs", ".tmp"}

// SafeFilename reduces a client's file name to letters, digits, '.', '-'
// and '_', at most 100 bytes, keeping the extension, never empty, never
// starting with a dot and never ending in a reserved extension, whose dot
// becomes '_' ("x.attrs" is "x_attrs").
func SafeFilename(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)), r == '.', r == '-', r == '_':
			b.WriteRune(r)
		case unicode.IsSpace(r) || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune('_')
		}
	}
	safe := strings.TrimLeft(b.String(), ".")
	if len(safe) > 100 {
		ext := path.Ext(safe)
		if len(ext) > 20 {
			ext = ""
		}
		safe = safe[:100-len(ext)] + ext
	}
	if safe == "" {
		return "file"
	}
	for _, ext := range reservedExts {
		if stem, found := cutSuffixFold(safe, ext); found {
			return stem + "_" + safe[len(stem)+1:]
		}
	}
	return safe
}

// cutSuffixFold is strings.CutSuffix ignoring ASCII case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
