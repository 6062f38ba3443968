package console

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// The console's CSRF token is a secret of the session, kept with it in the
// hub's database: a post passes only with the token of the session its
// cookie names. A token copied from another session, or a cookie and field
// pair planted in a browser, is worth nothing, and there is no cookie of
// its own to plant. Signing in starts the signed-in session with a new one.
const (
	// sessionCSRF is the session key of the token.
	sessionCSRF = "csrf"
	// csrfField is the name of the form field carrying the token, and
	// csrfHeader the header a script may send it in instead.
	csrfField  = "_csrf"
	csrfHeader = "X-CSRF-Token"
)

// csrfRefused is what a post without its session's token is told.
const csrfRefused = "This form has expired or came from another site. Reload the page and try again."

// csrfToken returns the token the page's forms must carry: the session's,
// made the first time a page of the session needs one.
func (con *Console) csrfToken(c echo.Context) string {
	ctx := c.Request().Context()
	t := con.sessions.GetString(ctx, sessionCSRF)
	if t == "" {
		t = accounts.NewLinkToken()
		con.sessions.Put(ctx, sessionCSRF, t)
	}
	return t
}

// checkCSRF lets through the requests of methods that change nothing, and
// of the others those that a browser says come from the console's own
// pages (Sec-Fetch-Site: same-origin, a header no page can set) or that
// carry their session's token, in the header X-CSRF-Token or in the field
// _csrf of the posted body. The query is never read: a token in a URL
// would end in logs and Referer headers, and a link could carry it. A
// request a browser says is cross-site is refused whatever it carries.
func (con *Console) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		switch r.Header.Get("Sec-Fetch-Site") {
		case "same-origin":
			return next(c)
		case "cross-site":
			return con.refuseCSRF(c, "cross-site")
		}
		got := r.Header.Get(csrfHeader)
		if got == "" {
			if err := r.ParseMultipartForm(maxBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
				if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
					return bodyTooLarge
				}
				return &hub.Error{Status: http.StatusBadRequest, Message: "The form could not be read."}
			}
			got = r.PostFormValue(csrfField)
		}
		want := con.sessions.GetString(r.Context(), sessionCSRF)
		if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			return con.refuseCSRF(c, "no token of the session")
		}
		return next(c)
	}
}

// refuseCSRF answers 403 a request that failed the CSRF check. The log
// names the route, not the path, which may hold a link's token.
func (con *Console) refuseCSRF(c echo.Context, why string) error {
	con.cfg.Logger.InfoContext(c.Request().Context(), "console post refused by CSRF protection",
		slog.String("route", c.Path()), slog.String("client", c.RealIP()), slog.String("why", why))
	return c.String(http.StatusForbidden, csrfRefused)
}
