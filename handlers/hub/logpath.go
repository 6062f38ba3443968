package hub

import (
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// secretParams are the route parameters whose value is a secret: the token
// of a link mailed or shown to one person (a sign-up, a password reset, an
// invitation). The log names them and never holds their value.
var secretParams = map[string]bool{"token": true}

// LogPath is the request's path as a log line may name it: the pattern of
// the route it took with the values of its parameters, but the name of a
// secret one (":token") in place of its value, and never the query string,
// which carries a draft's token or a provider's code. A request no route
// took is named by MaskPath. Every log line that names a request's path
// takes it from here.
func LogPath(c echo.Context) string {
	pattern := c.Path()
	if pattern == "" {
		return MaskPath(c.Request().URL.Path)
	}
	values := map[string]string{}
	for i, name := range c.ParamNames() {
		if i < len(c.ParamValues()) {
			values[name] = c.ParamValues()[i]
		}
	}
	var b strings.Builder
	for i, seg := range strings.Split(pattern, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		name, isParam := strings.CutPrefix(seg, ":")
		if seg == "*" {
			name, isParam = "*", true
		}
		v, known := values[name]
		switch {
		case !isParam || secretParams[name] || !known:
			b.WriteString(seg)
		case name == "*":
			b.WriteString(MaskPath(v))
		default:
			b.WriteString(v)
		}
	}
	return b.String()
}

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
