package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/hubclient"
)

// FormSource is where the hub finds its forms.
type FormSource interface {
	// Lookup returns the form, an error wrapping ErrNotFound, or another
	// error when the form exists but cannot be served.
	Lookup(site, slug string) (*Form, error)
}

// Admission decides whether a form takes one more submission beyond its own
// rules: a hub for many owners counts their quotas (package quota).
type Admission interface {
	// Admit returns nil when the form's site may take a submission with
	// files of bytes, and an error wrapping ErrQuota when its owner has
	// reached their quota.
	Admit(ctx context.Context, site string, bytes int64) error
}

// ErrQuota means the owner of a form has reached their quota.
var ErrQuota = errors.New("quota reached")

// Store is what the hub needs of its database.
type Store interface {
	CreateUpload(ctx context.Context, u Upload) error
	Upload(ctx context.Context, key string) (Upload, error)
	MarkUploaded(ctx context.Context, key string, at time.Time) error
	// CreateSubmission stores s; when s.IdempotencyKey is already used for
	// s.Site and s.Slug it stores nothing and returns a *KeyUsedError.
	CreateSubmission(ctx context.Context, s Submission) error
	// SubmissionByKey returns the id of the submission of site and slug
	// that carries the idempotency key, or an error wrapping ErrNotFound.
	SubmissionByKey(ctx context.Context, site, slug, key string) (string, error)
	// FormFull reports whether the form of site and slug holds max
	// submissions not marked as spam, reading no more than max of them:
	// the schema route and submit ask it of a form with MaxSubmissions.
	FormFull(ctx context.Context, site, slug string, max int) (bool, error)
	StaleUploads(ctx context.Context, before time.Time, limit int) ([]Upload, error)
	DeleteUpload(ctx context.Context, key string) error
}

// Blobs is what the hub needs of its file storage.
type Blobs interface {
	// SignedPutURL returns a URL good for one PUT of u's body, under u.Key,
	// for expiry. Stores that can bind u.MIME and u.Size into the signature
	// do, so that the storage itself refuses any other body.
	SignedPutURL(ctx context.Context, u Upload, expiry time.Duration) (string, error)
	Attributes(ctx context.Context, key string) (size int64, contentType string, err error)
	Delete(ctx context.Context, key string) error
}

// Sealer is implemented by Blobs that clients upload to directly, an
// object store whose signed URLs cannot be revoked and take further PUTs
// until they expire. Such a store keeps each uploaded body apart, staged,
// and the hub has it sealed, copied under the upload's key, when a
// submission first names it: a later PUT to the URL changes the staged
// body only, never a file the hub accepted.
type Sealer interface {
	// Staged returns the size and type of the body uploaded for key and
	// not sealed yet, or an error wrapping ErrNotFound.
	Staged(ctx context.Context, key string) (size int64, contentType string, err error)
	// Seal copies the staged body of u under u.Key, once more checked
	// against u's size and type; an error wraps ErrNotFound without one.
	Seal(ctx context.Context, u Upload) error
}

// PartUploader is implemented by Blobs that take a large file in parts,
// each PUT to its own signed URL, several at a time, so that a cut
// connection resumes with the parts not yet stored and a file may be
// larger than one PUT allows (the protocol's files in parts). The file
// whole, once completed, is where a single PUT would have put it: staged
// for a Sealer, at u.Key otherwise.
type PartUploader interface {
	// StartParts begins u's upload in parts of partSize bytes, the last
	// one shorter, and returns the storage's id for it and one URL per
	// part, valid for expiry.
	StartParts(ctx context.Context, u Upload, partSize int64, expiry time.Duration) (id string, urls []string, err error)
	// SignParts signs the URLs of the parts of u's upload (u.PartsID)
	// again, valid for expiry: an upload may outlast its first ones.
	SignParts(ctx context.Context, u Upload, partSize int64, expiry time.Duration) ([]string, error)
	// CompleteParts joins the parts of u (u.PartsID) into its file, each
	// part named with the ETag its PUT answered. Parts missing, or whose
	// ETags or sizes do not match, give an error wrapping ErrParts.
	CompleteParts(ctx context.Context, u Upload, parts []hubclient.UploadedPart) error
	// AbortParts discards the parts of u's upload (u.PartsID); one
	// completed or aborted already is not an error.
	AbortParts(ctx context.Context, u Upload) error
}

// ErrParts means the parts named to complete an upload are not those
// stored for it.
var ErrParts = errors.New("the parts do not make the file")

// LeftoverSweeper is implemented by Blobs that may hold bodies no upload
// record accounts for: the temporary file of an upload cut short by a
// crash, or a body PUT to a staging object after its file was sealed.
type LeftoverSweeper interface {
	// SweepLeftovers deletes such bodies last written before before, and
	// returns how many it deleted.
	SweepLeftovers(ctx context.Context, before time.Time) (int, error)
}

// Limiter counts requests against a budget shared by every hub that uses
// it, as a database they share can (see sqldb.DB.Allow).
type Limiter interface {
	// Allow counts one request of client against limit requests per
	// window, and reports whether it is within the budget; when it is
	// not, retryAfter is how long until it may be.
	Allow(ctx context.Context, client string, limit int, window time.Duration, now time.Time) (ok bool, retryAfter time.Duration, err error)
}

// Captcha verifies captcha tokens with their provider.
type Captcha interface {
	Verify(ctx context.Context, r captcha.Request) error
}

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
	Forms   FormSource
	Store   Store
	Blobs   Blobs
	Captcha Captcha
	// Admission, when set, admits each submission once it is found valid,
	// before it is stored.
	Admission Admission
	// Funnel, when set, counts the events apps send of their forms (the
	// events route); without it the hub answers that route 404.
	Funnel FunnelCounter
	// CountTokens, when set, checks the API tokens that apps present on
	// the events route to send the counts they aggregate from their
	// visitors; without it a post with a token is answered 401, and only
	// a client's own counts are taken (hubclient.MaxAnonymousCount).
	CountTokens CountTokens
	// Drafts, when set, keeps the drafts of forms that have them (the
	// drafts routes); without it the hub answers those routes 404.
	Drafts DraftStore
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
	Limiter Limiter
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
	if _, ok := s.cfg.Blobs.(PartUploader); ok {
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
