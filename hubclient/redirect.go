package hubclient

import (
	"net/url"
	"strings"
	"unicode"
)

// ValidRedirect reports whether raw may be a form's meta.redirectUrl: an
// absolute http or https URL with a host and no user name or password, or
// a path of the site that shows the form, starting with a single "/".
// "//" and "/\" are refused: a browser takes what follows them for another
// host. So are spaces, control characters and backslashes anywhere, which
// browsers drop or read as slashes, and every other scheme, javascript:
// and data: above all.
func ValidRedirect(raw string) bool {
	if raw == "" || strings.ContainsFunc(raw, func(r rune) bool { return r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if strings.HasPrefix(raw, "/") {
		return !strings.HasPrefix(raw, "//") && u.Scheme == "" && u.Host == ""
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// Redirect returns the page a visitor is sent to after a submission, in
// place of the thank-you panel: RedirectURL when ValidRedirect accepts it,
// else "" (the thank-you panel). A hub validates the member when it saves
// a form; a client checks it again, so that a javascript: URL a hub sends
// all the same is ignored rather than followed.
func (m Meta) Redirect() string {
	if !ValidRedirect(m.RedirectURL) {
		return ""
	}
	u, _ := url.Parse(m.RedirectURL)
	return u.String()
}
