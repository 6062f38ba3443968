package hubclient

import "net/url"

// Redirect returns the page a visitor is sent to after a submission, in
// place of the thank-you panel: RedirectURL when it is an absolute http or
// https URL with a host, else "" (the thank-you panel). Anything else, a
// relative path or a javascript: URL, is ignored rather than followed.
func (m Meta) Redirect() string {
	u, err := url.Parse(m.RedirectURL)
	if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}
