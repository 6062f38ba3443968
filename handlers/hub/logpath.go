package hub

import (
	"net/url"
	"strings"
)

// maxLoggedSegment is the longest segment of a path MaskPath keeps: a
// token is longer (32 random bytes are 43 characters), an id is not (26).
const maxLoggedSegment = 32

// MaskPath returns path, without any query, with each segment longer than
// a name or an id replaced by "…": what a log line may name of a path no
// route pattern describes, where a mistyped link could carry its token.
func MaskPath(path string) string {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = maskSegment(s)
	}
	return strings.Join(segs, "/")
}

func maskSegment(s string) string {
	if len(s) > maxLoggedSegment {
		return "…"
	}
	return s
}

// RedactURL returns the scheme and host of the URL raw, and "…" for any
// path or query: what a log line or a page for those who may not read a
// form's secrets names of a webhook's URL, which often carries the
// receiver's token. A URL that does not parse is "…" whole.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "…"
	}
	out := u.Scheme + "://" + u.Host
	if strings.TrimPrefix(raw, out) != "" {
		out += "/…"
	}
	return out
}
