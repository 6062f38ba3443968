package protocol

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Defaults of Config.
const (
	DefaultMaxBodyBytes    = 1 << 20
	DefaultUploadURLExpiry = 15 * time.Minute
	DefaultRateLimit       = 60
	DefaultBodyTimeout     = 30 * time.Second
	// DefaultUploadPartSize is small enough that a cut connection sends
	// little again, and large enough for object stores, which take parts
	// of 5 MiB at the least, and 10,000 parts at the most.
	DefaultUploadPartSize = 16 << 20
	// PartsFrom is how many parts' size a file has at the least to go in
	// parts: below, one PUT costs less than several requests.
	PartsFrom = 4
	// maxParts is how many parts a file goes in at the most, as S3 allows;
	// a larger file has larger parts.
	maxParts = 10_000
	// UploadsPath is where the hub serves the PUT endpoint of its local
	// storage, below the protocol version. No site id can take this name.
	UploadsPath = "/v1/_uploads"
)

// Config configures a Server. Forms, Store and Blobs are required.
type Config struct {
	Forms   hub.FormSource
	Store   hub.Store
	Blobs   hub.Blobs
	Captcha hub.Captcha
	// Admission, when set, admits each submission once it is found valid,
	// before it is stored.
	Admission hub.Admission
	// Funnel, when set, counts the events apps send of their forms (the
	// events route); without it the hub answers that route 404.
	Funnel hub.FunnelCounter
	// CountTokens, when set, checks the API tokens that apps present on
	// the events route to send the counts they aggregate from their
	// visitors; without it a post with a token is answered 401, and only
	// a client's own counts are taken (hubclient.MaxAnonymousCount).
	CountTokens hub.CountTokens
	// Drafts, when set, keeps the drafts of forms that have them (the
	// drafts routes); without it the hub answers those routes 404.
	Drafts hub.DraftStore
	// HostedPages is the URL the hub's own pages of forms are under, with
	// a trailing slash ("https://hub.example.com/f/"): a draft's link may
	// lead to the form's page there, besides its allowed origins.
	HostedPages string
	// Uploads serves PUTs to the URLs Blobs signs, when the storage is the
	// hub itself; nil when clients PUT to an object store directly.
	Uploads http.Handler
	Logger  *slog.Logger
	// CaptchaSecrets holds the secret per provider for forms that set none.
	CaptchaSecrets map[string]string
	// MaxBodyBytes caps the submit body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// UploadURLExpiry is how long a signed upload URL works; zero means
	// DefaultUploadURLExpiry, which is also the most allowed.
	UploadURLExpiry time.Duration
	// UploadPartSize is the size of the parts a file goes in, when Blobs
	// is a PartUploader and the client can send parts: files of at least
	// PartsFrom parts of it do. Zero means DefaultUploadPartSize.
	UploadPartSize int64
	// BodyTimeout is how long a client may take to send a JSON body, and
	// the base of an upload's allowance; zero means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// RateLimit is how many upload-url and submit requests one client may
	// make per minute, and, counted apart, how many posts of counts
	// without a token; zero turns the limit off.
	RateLimit int
	// Limiter, when set, keeps the count of requests for RateLimit, so
	// that hubs sharing it enforce one budget per client. Without it each
	// process counts on its own, and a client behind a load balancer may
	// make RateLimit requests a minute to every hub.
	Limiter hub.Limiter
	// TrustedProxies are the networks whose X-Forwarded-For is believed.
	// Without them a client's address is the socket's.
	TrustedProxies []*net.IPNet
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Mount adds further routes to the hub's router, after the protocol's:
	// the console and the admin API (packages console and admin). Each
	// guards its own routes.
	Mount []func(*echo.Echo)
}

// Server is the hub's HTTP handler.
type Server struct {
	cfg  Config
	echo *echo.Echo
	// keys holds the idempotency keys of submissions under way.
	keys keyLocks
}

// NewServer checks cfg and returns the hub's handler.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Forms == nil || cfg.Store == nil || cfg.Blobs == nil {
		return nil, errors.New("hub: Forms, Store and Blobs are required")
	}
	if cfg.UploadURLExpiry == 0 {
		cfg.UploadURLExpiry = DefaultUploadURLExpiry
	}
	if cfg.UploadURLExpiry < 0 || cfg.UploadURLExpiry > DefaultUploadURLExpiry {
		return nil, fmt.Errorf("hub: upload URL expiry %v is outside (0, %v]", cfg.UploadURLExpiry, DefaultUploadURLExpiry)
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	if cfg.UploadPartSize == 0 {
		cfg.UploadPartSize = DefaultUploadPartSize
	}
	if cfg.UploadPartSize < 0 {
		return nil, fmt.Errorf("hub: upload part size %d is negative", cfg.UploadPartSize)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RateLimit < 0 {
		return nil, fmt.Errorf("hub: rate limit %d is negative", cfg.RateLimit)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, echo: echo.New()}
	s.routes()
	return s, nil
}

// ServeHTTP serves the hub's routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

func (s *Server) routes() {
	e := s.echo
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if len(s.cfg.TrustedProxies) > 0 {
		var trust []echo.TrustOption
		for _, n := range s.cfg.TrustedProxies {
			trust = append(trust, echo.TrustIPRange(n))
		}
		// Only the listed proxies are trusted, not every private network.
		trust = append(trust, echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false))
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	}
	e.Use(middleware.Recover())
	e.Use(s.logRequests())
	e.Use(s.readDeadline)

	e.GET("/healthz", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]bool{"ok": true}) })
	limited := s.rateLimit("")
	v1 := e.Group("/v1")
	v1.GET("/:site/:slug", s.getSchema, s.cors)
	v1.POST("/:site/:slug/upload-url", s.postUploadURL, s.cors, limited)
	v1.POST("/:site/:slug/submit", s.postSubmit, s.cors, limited)
	v1.OPTIONS("/:site/:slug", s.preflight, s.cors)
	v1.OPTIONS("/:site/:slug/upload-url", s.preflight, s.cors)
	v1.OPTIONS("/:site/:slug/submit", s.preflight, s.cors)
	if s.cfg.Funnel != nil {
		v1.POST("/:site/:slug/events", s.postEvents, s.cors, s.countsAccess(s.rateLimit("events")))
		v1.OPTIONS("/:site/:slug/events", s.preflight, s.cors)
	}
	if s.cfg.Drafts != nil {
		v1.POST("/:site/:slug/drafts", s.postDraft, s.cors, limited)
		v1.POST("/:site/:slug/drafts/resume", s.postDraftResume, s.cors, limited)
		v1.OPTIONS("/:site/:slug/drafts", s.preflight, s.cors)
		v1.OPTIONS("/:site/:slug/drafts/resume", s.preflight, s.cors)
	}
	if _, ok := s.cfg.Blobs.(hub.PartUploader); ok {
		v1.POST("/:site/:slug/upload-parts", s.postUploadParts, s.cors, limited)
		v1.POST("/:site/:slug/upload-complete", s.postUploadComplete, s.cors, limited)
		v1.OPTIONS("/:site/:slug/upload-parts", s.preflight, s.cors)
		v1.OPTIONS("/:site/:slug/upload-complete", s.preflight, s.cors)
	}
	if s.cfg.Uploads != nil {
		put := echo.WrapHandler(s.cfg.Uploads)
		e.PUT(UploadsPath, put, s.uploadCORS)
		e.OPTIONS(UploadsPath, put, s.uploadCORS)
		e.Match([]string{http.MethodGet, http.MethodPost, http.MethodHead}, UploadsPath, put, s.uploadCORS)
	}
	for _, mount := range s.cfg.Mount {
		mount(e)
	}
}

// Routes returns every route of the hub, for tests that check each one.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }
