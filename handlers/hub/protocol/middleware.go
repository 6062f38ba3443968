package protocol

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubhttp"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// schemaRoute is the route of the schema, whose slug ends in ".json".
const schemaRoute = "/v1/:site/:slug"

// formKey is where withForm leaves the form in the request's context.
const formKey = "hubform.form"

// withForm resolves the route's site and slug to a form: 404 for names that
// are not valid or not found, 500 when the form's file is invalid.
func (s *Server) withForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		site, slug := c.Param("site"), c.Param("slug")
		if c.Path() == schemaRoute {
			var ok bool
			if slug, ok = strings.CutSuffix(slug, ".json"); !ok {
				return &hub.Error{Status: http.StatusNotFound, Message: "no such route: " + c.Request().URL.Path}
			}
		}
		if !hub.ValidName(site) || !hub.ValidName(slug) {
			return &hub.Error{Status: http.StatusNotFound, Message: "no such form"}
		}
		form, err := s.cfg.Forms.Lookup(site, slug)
		if err != nil && c.Request().Header.Get("Origin") != "" {
			// Let a browser read why, whichever origin asked.
			c.Response().Header().Set("Access-Control-Allow-Origin", "*")
		}
		switch {
		case errors.Is(err, hub.ErrNotFound):
			return &hub.Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no form %s/%s", site, slug)}
		case err != nil:
			s.cfg.Logger.Error("form cannot be served", slog.String("site", site), slog.String("form", slug), slog.Any("error", err))
			return &hub.Error{Status: http.StatusInternalServerError, Message: fmt.Sprintf("form %s/%s cannot be served: it is invalid, or could not be read (the hub's log says why)", site, slug)}
		}
		c.Set(formKey, form)
		return next(c)
	}
}

func formOf(c echo.Context) *hub.Form { return c.Get(formKey).(*hub.Form) }

// cors lets browsers on the form's allowed origins call its routes; a
// request from any other origin is refused. A form with no allowed origins
// may be called from anywhere.
func (s *Server) cors(next echo.HandlerFunc) echo.HandlerFunc {
	return s.withForm(func(c echo.Context) error {
		h := c.Response().Header()
		h.Add("Vary", "Origin") // the answer depends on it, even when absent
		origin := c.Request().Header.Get("Origin")
		if origin == "" {
			return next(c)
		}
		allowed := formOf(c).Settings.AllowedOrigins
		switch {
		case len(allowed) == 0:
			h.Set("Access-Control-Allow-Origin", "*")
		case containsFold(allowed, origin):
			h.Set("Access-Control-Allow-Origin", origin)
		default:
			return &hub.Error{Status: http.StatusForbidden, Message: "origin " + origin + " may not use this form"}
		}
		return next(c)
	})
}

// preflight answers a browser's CORS preflight for an allowed origin.
func (s *Server) preflight(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Access-Control-Allow-Methods", "GET, POST")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Accept")
	h.Set("Access-Control-Max-Age", "600")
	return c.NoContent(http.StatusNoContent)
}

// UploadKeyer is an Uploads handler whose URLs name the object key they
// take, which lets the hub answer a browser's preflight for the key's form.
type UploadKeyer interface {
	UploadKey(r *http.Request) string
}

// uploadCORS lets browsers PUT files to signed URLs from the origins the
// file's form allows, from any when it lists none, as the form's own
// routes do (cors). The signature is what authorizes an upload; the origin
// is the form owner's say in which sites send it files. An answer about
// no known upload carries "*", so that a browser can read why.
func (s *Server) uploadCORS(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Add("Vary", "Origin")
		r := c.Request()
		if origin := r.Header.Get("Origin"); origin == "" {
			h.Set("Access-Control-Allow-Origin", "*") // no browser's: nothing to decide
		} else {
			switch allowed, known := s.uploadOrigins(r); {
			case !known || len(allowed) == 0:
				h.Set("Access-Control-Allow-Origin", "*")
			case containsFold(allowed, origin):
				h.Set("Access-Control-Allow-Origin", origin)
			case r.Method == http.MethodOptions:
				return &hub.Error{Status: http.StatusForbidden, Message: "origin " + origin + " may not send files to this form"}
			}
		}
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "PUT")
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusNoContent)
		}
		// A part's ETag is what completes an upload in parts.
		h.Set("Access-Control-Expose-Headers", "ETag")
		return next(c)
	}
}

// uploadOrigins returns the allowed origins of the form whose upload r
// names, and whether r names one.
func (s *Server) uploadOrigins(r *http.Request) ([]string, bool) {
	keyer, ok := s.cfg.Uploads.(UploadKeyer)
	if !ok {
		return nil, false
	}
	u, err := s.cfg.Store.Upload(r.Context(), keyer.UploadKey(r))
	if err != nil {
		return nil, false
	}
	form, err := s.cfg.Forms.Lookup(u.Site, u.Slug)
	if err != nil {
		return nil, false
	}
	return form.Settings.AllowedOrigins, true
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// minUploadRate is the slowest upload, in bytes a second, given time.
const minUploadRate = 64 << 10

// readDeadline gives a client BodyTimeout to send a request body, and an
// upload that plus time for its length at minUploadRate. Slower clients
// are cut off rather than held open.
func (s *Server) readDeadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		limit := s.cfg.BodyTimeout
		if r.Method == http.MethodPut && r.ContentLength > 0 {
			limit += time.Duration(r.ContentLength/minUploadRate) * time.Second
		}
		// An error means the connection cannot take deadlines (HTTP/2
		// through some proxies); the server's own timeouts still apply.
		_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(limit))
		return next(c)
	}
}

// rateLimit allows each client RateLimit requests a minute and answers 429
// with Retry-After beyond that: counted by Limiter when set, in clock
// minutes, else by this process alone, in bursts of up to RateLimit. Each
// budget is counted apart: the submissions' ("") and the counts'
// ("events"), so that an app's counts never cost a visitor a submission.
func (s *Server) rateLimit(budget string) echo.MiddlewareFunc {
	if s.cfg.RateLimit == 0 {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	if s.cfg.Limiter != nil {
		return s.sharedRateLimit(budget)
	}
	perMinute := s.cfg.RateLimit
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Limit(float64(perMinute) / 60), Burst: perMinute, ExpiresIn: 3 * time.Minute,
	})
	retryAfter := time.Duration(float64(time.Minute) / float64(perMinute))
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: store,
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			return s.tooManyRequests(c, retryAfter)
		},
	})
}

// sharedRateLimit is the rate limit counted by Limiter, a client's
// requests of budget under the name "budget client" ("client" alone for
// the submissions', the first budget, as ever).
//
// When Limiter fails, the request is let through and a warning logged:
// the limit protects the hub from floods, and refusing every client
// because the database hiccupped would be a worse outage than a few
// uncounted requests. Requests that go on to write need that database
// anyway, and fail on their own if it is down.
func (s *Server) sharedRateLimit(budget string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			client := strings.TrimSpace(budget + " " + c.RealIP())
			ok, retryAfter, err := s.cfg.Limiter.Allow(ctx, client, s.cfg.RateLimit, time.Minute, s.cfg.Now())
			switch {
			case err != nil:
				s.cfg.Logger.LogAttrs(ctx, slog.LevelWarn, "rate limit not counted; request let through",
					slog.String("client", c.RealIP()), slog.Any("error", err))
			case !ok:
				return s.tooManyRequests(c, retryAfter)
			}
			return next(c)
		}
	}
}

// tooManyRequests answers 429 with Retry-After: retryAfter in whole
// seconds, rounded up so that a client waiting that long is let in, and
// at least 1.
func (s *Server) tooManyRequests(c echo.Context, retryAfter time.Duration) error {
	secs := max(1, int64(math.Ceil(retryAfter.Seconds())))
	c.Response().Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	return &hub.Error{Status: http.StatusTooManyRequests, Message: fmt.Sprintf("too many requests: at most %d a minute", s.cfg.RateLimit)}
}

// logRequests logs every request once it is answered, naming its path by
// LogPath: a link's token or a draft's is never written.
func (s *Server) logRequests() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		// The error handler writes a returned error's answer before the
		// line is logged, so that the line has its status.
		HandleError: true,
		LogMethod:   true, LogStatus: true, LogLatency: true, LogRemoteIP: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			s.cfg.Logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method), slog.String("path", hubhttp.LogPath(c)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("client", v.RemoteIP))
			return nil
		},
	})
}
