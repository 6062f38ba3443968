package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/funnel"
	"github.com/hubform/hubform/handlers/hub/hosted"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/metrics"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/quota"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

const hubHelp = `
Usage: hubform hub [--forms DIR] [--data DIR] [--addr ADDR] [--public-url URL] [flags]

Serves a hub: the hosted-form protocol's three routes for every form in its
database and in the forms directory, the PUT endpoint of its signed upload
URLs, and /healthz.
Submissions go to SQLite and files to a directory, both under --data, unless
--db names a PostgreSQL database and --blob an S3-compatible bucket: then the
hub keeps no state of its own, and several hubs sharing both serve as one.

Routes:
  GET  /v1/{site}/{slug}.json         the form's schema
  POST /v1/{site}/{slug}/upload-url   a signed URL for one file
  POST /v1/{site}/{slug}/submit       a submission
  PUT  /v1/_uploads?…                 a file's body, to a signed URL (without --blob)
  GET  /f/{site}/{slug}               the form's page, for people to fill in (?locale=xx,
                                      else the browser's language); none for a form whose
                                      settings say "hub": {"hostedPage": false}
  POST /hubform/{site}/{slug}/submit  the page's posts (and …/logic; its scripts under
                                      /hubform/static/)
  GET  /healthz                       200 while the hub serves
  GET  /metrics                       Prometheus metrics, with a token of scope metrics
                                      (hubform tokens create --scope metrics)
  /console                            the owners' console: a user that hubform users
                                      add made sees the sites of their workspaces
  /v1/admin/...                       the admin API, with a workspace's token that
                                      hubform tokens create made (Authorization: Bearer)

Forms in the database are saved as versions and published through the admin
API (hubform forms push --publish); every hub on the database serves the
published version from its next request. The forms directory holds
DIR/<site>/<slug>.json: a schema plus an optional member "hub" of server-only
settings, read-only, edits picked up without a restart. A form in the
directory wins over one of the same site and slug in the database, and the
admin API refuses to save or publish such a form. The site id "admin" is
reserved for the admin API.

Console cookies are marked Secure when --public-url is https://.

Forms whose settings list "webhooks" or "notify" e-mail addresses have each
submission delivered at least once: signed Standard Webhooks POSTs, retried
for 24 hours, and one e-mail over --smtp-url. The e-mail goes to the addresses
that are members of the form's workspace or confirmed a link the hub mailed
them; any other listed address is asked once, in the hub's own words. The
deliveries are jobs in the database, stored with the submission; every hub on
it works them, and "hubform deliveries" lists and retries them.
`

const hubTail = `
Every flag falls back to the environment variable named in its description.

Example:
  hubform hub --forms ./forms --data ./hub-data --addr 127.0.0.1:8081
  hubform submit --hub-url http://127.0.0.1:8081/v1 --site acme --form contact name=Jane

Scaled out, on each of several machines behind one load balancer:
  AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… hubform hub --forms ./forms \
    --addr :8081 --public-url https://forms.example.com --trusted-proxies 10.0.0.0/8 \
    --db 'postgres://hub:PASSWORD@db.internal/hub' \
    --blob 's3://forms-uploads?region=us-east-1'
`

// hubConfig is the hub command's configuration.
type hubConfig struct {
	addr, data, forms, publicURL        string
	formsWorkspace                      string
	oidcIssuer, oidcClientID            string
	oidcClientSecret                    string
	signup                              string
	db, blob                            string
	signingSecret                       string
	turnstileSecret, recaptchaSecret    string
	turnstileVerifyURL, recaptchaVerify string
	turnstileScript                     string
	maxBody                             int64
	rateLimit                           int
	trustedProxies                      string
	uploadTTL, sweepInterval            time.Duration
	shutdownGrace                       time.Duration
	logFormat                           string
	delivery                            deliveryConfig
}

func runHub(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg hubConfig
	fs := newFlagSet("hub", hubHelp, hubTail, stderr)
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8081", "`ADDR` to listen on, host:port")
	fs.StringVar(&cfg.data, "data", "hubform-data", "`DIR` for the database, files and signing key")
	fs.StringVar(&cfg.db, "db", "", "database `URL`: postgres://USER:PASSWORD@HOST:PORT/DB for hubs sharing\none database; empty: SQLite in DATA/hub.db")
	fs.StringVar(&cfg.blob, "blob", "", "file storage `URL`: s3://BUCKET?region=R[&endpoint=URL] for an S3-compatible\nbucket clients upload to directly, with credentials from AWS_ACCESS_KEY_ID and\nAWS_SECRET_ACCESS_KEY; empty: DATA/files, uploaded through the hub")
	fs.StringVar(&cfg.forms, "forms", "", "`DIR` of forms, DIR/<site>/<slug>.json, served read-only beside the\ndatabase's forms; empty: the database's forms only")
	fs.StringVar(&cfg.formsWorkspace, "forms-workspace", accounts.DefaultWorkspace, "the `WORKSPACE` that owns the sites of --forms, claimed at start and as\nthey appear; a site another workspace owns stops the hub")
	fs.StringVar(&cfg.publicURL, "public-url", "", "`URL` clients reach the hub at, used in signed upload URLs;\nempty: http://ADDR")
	fs.StringVar(&cfg.oidcIssuer, "oidc-issuer", "", "`URL` of an OpenID Connect provider the console offers single sign-on with;\nits redirect URL is PUBLIC-URL/console/sso/callback")
	fs.StringVar(&cfg.signup, "signup", string(console.SignupInvite), "who may join the console: closed (the operator adds people), invite (admins also\ninvite people to their workspace) or open (anyone also signs up, with a\nworkspace of their own, once their e-mail address is confirmed)")
	fs.StringVar(&cfg.oidcClientID, "oidc-client-id", "", "the console's client `ID` at the provider")
	fs.StringVar(&cfg.oidcClientSecret, "oidc-client-secret", "", "the console's client `SECRET` at the provider")
	fs.StringVar(&cfg.signingSecret, "signing-secret", "", "`SECRET` of at least 32 bytes signing upload URLs; hubs sharing\nstorage share it; empty: one kept in DATA/signing.key; unused with --blob,\nwhose URLs the bucket's credentials sign")
	fs.StringVar(&cfg.turnstileSecret, "turnstile-secret", "", "Turnstile `SECRET` for forms whose settings name none")
	fs.StringVar(&cfg.recaptchaSecret, "recaptcha-secret", "", "reCAPTCHA `SECRET` for forms whose settings name none")
	fs.StringVar(&cfg.turnstileVerifyURL, "turnstile-verify-url", captcha.TurnstileVerifyURL, "Turnstile siteverify `URL`")
	fs.StringVar(&cfg.recaptchaVerify, "recaptcha-verify-url", captcha.RecaptchaVerifyURL, "reCAPTCHA siteverify `URL`")
	fs.StringVar(&cfg.turnstileScript, "turnstile-script-url", "", "Turnstile script `URL` of the forms' pages; empty: Cloudflare's")
	fs.Int64Var(&cfg.maxBody, "max-body", protocol.DefaultMaxBodyBytes, "largest submit body in `BYTES`")
	fs.IntVar(&cfg.rateLimit, "rate-limit", int(protocol.DefaultRateLimit), "upload-url and submit requests per minute per client, and apart posts of counts without a token; 0: no limit")
	fs.StringVar(&cfg.trustedProxies, "trusted-proxies", "", "comma-separated `CIDRS` of proxies and host apps whose X-Forwarded-For\nnames the client; empty: the client is the socket's address")
	fs.DurationVar(&cfg.uploadTTL, "upload-ttl", 24*time.Hour, "delete uploads no submission claimed after this long")
	fs.DurationVar(&cfg.sweepInterval, "sweep-interval", 10*time.Minute, "how often to look for such uploads, and delete submissions past their form's retentionDays")
	fs.DurationVar(&cfg.shutdownGrace, "shutdown-grace", 30*time.Second, "on SIGINT or SIGTERM, how long requests under way may take to finish\nbefore they are cancelled")
	addDeliveryFlags(fs, &cfg.delivery)
	fs.StringVar(&cfg.logFormat, "log-format", "text", "`FORMAT` of the log on standard error: text or json")
	if _, status, ok := fs.parse(args, stdout); !ok {
		return status
	}
	if err := serveHub(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "hubform hub: %v\n", err)
		return 1
	}
	return 0
}

// runningHub is a hub listening on its address, ready to serve.
type runningHub struct {
	// URL is the hub URL clients use: the public URL + "/v1".
	URL     string
	logger  *slog.Logger
	ln      net.Listener
	server  *protocol.Server
	db      *database
	blobs   blobStore
	queue   *delivery.Queue
	metrics *metrics.Metrics
	closers []func() error
	cfg     hubConfig
	// funnel counts the forms' funnels; Close stores what it holds.
	funnel *funnel.Counter
}

// blobStore is the file storage of a running hub, local or in a bucket.
type blobStore interface {
	hub.Blobs
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
}

// openHub listens on cfg.addr and opens the hub's forms and storage.
func openHub(ctx context.Context, cfg hubConfig, logger *slog.Logger) (_ *runningHub, err error) {
	if cfg.uploadTTL < protocol.MinUploadTTL || cfg.sweepInterval <= 0 {
		return nil, fmt.Errorf("--upload-ttl must be at least %v and --sweep-interval positive", protocol.MinUploadTTL)
	}
	if cfg.shutdownGrace <= 0 {
		return nil, errors.New("--shutdown-grace must be positive")
	}
	if cfg.signingSecret != "" && len(cfg.signingSecret) < localblob.MinSecretLen {
		// Checked before anything is opened, so a bad flag leaves no trace.
		return nil, fmt.Errorf("--signing-secret must be at least %d bytes", localblob.MinSecretLen)
	}
	proxies, err := parseCIDRs("--trusted-proxies", cfg.trustedProxies)
	if err != nil {
		return nil, err
	}
	h := &runningHub{logger: logger, cfg: cfg}
	defer func() {
		if err != nil {
			h.Close()
		}
	}()
	if h.ln, err = net.Listen("tcp", cfg.addr); err != nil {
		return nil, err
	}
	h.closers = append(h.closers, h.ln.Close)
	publicURL := strings.TrimRight(cfg.publicURL, "/")
	if publicURL == "" {
		publicURL = "http://" + h.ln.Addr().String()
	}
	h.URL = publicURL + "/v1"

	if h.db, err = openDB(ctx, cfg.db, cfg.data, false); err != nil {
		return nil, err
	}
	h.closers = append(h.closers, h.db.Close)
	// The forms of the database, and beside them those of the directory,
	// which win a clash (see formsource.Layered).
	served := &formsource.Layered{Stored: formsource.NewStored(h.db, logger)}
	if cfg.forms != "" {
		if served.Dir, err = formsource.Open(cfg.forms, logger); err != nil {
			return nil, err
		}
		h.closers = append(h.closers, served.Dir.Close)
		if err := claimDirectorySites(ctx, h.db, served.Dir, cmp.Or(cfg.formsWorkspace, accounts.DefaultWorkspace)); err != nil {
			return nil, err
		}
	}
	files, local, err := openFiles(ctx, cfg.blob, cfg.data, publicURL, func() ([]byte, error) {
		return signingSecret(cfg.signingSecret, cfg.data)
	})
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, files.Close)
	h.blobs = files
	// Uploads serves the PUTs of local storage; a bucket takes its own.
	var uploads http.Handler
	if local != nil {
		uploads = local.PutHandler(h.db)
	}
	h.metrics = metrics.New(logger)
	if h.queue, err = openDelivery(ctx, cfg, h.db, served, h.blobs, publicURL, h.metrics.OnAttempt, logger); err != nil {
		return nil, err
	}
	h.metrics.CountQueue(h.queue.Depth)
	h.closers = append(h.closers, func() error { h.queue.Close(); return nil })
	var limiter hub.Limiter
	if h.db.shared() {
		// Hubs sharing a database share each client's budget through it.
		// One hub on SQLite counts in memory: a synced commit per counted
		// request would buy nothing there.
		limiter = h.db
	}
	var sso *console.OIDC
	if cfg.oidcIssuer != "" || cfg.oidcClientID != "" {
		if cfg.oidcIssuer == "" || cfg.oidcClientID == "" || cfg.oidcClientSecret == "" {
			return nil, errors.New("--oidc-issuer, --oidc-client-id and --oidc-client-secret go together")
		}
		if sso, err = console.NewOIDC(ctx, cfg.oidcIssuer, cfg.oidcClientID, cfg.oidcClientSecret, publicURL); err != nil {
			return nil, fmt.Errorf("--oidc-issuer: %w", err)
		}
	}
	signup, err := console.ParseSignup(cmp.Or(cfg.signup, string(console.SignupInvite)))
	if err != nil {
		return nil, fmt.Errorf("--signup %w", err)
	}
	owners, countTokens, err := ownerRoutes(h.db.DB, served, h.blobs, h.queue, h.metrics, logger, consoleOptions{publicURL: publicURL, sso: sso, signup: signup})
	if err != nil {
		return nil, err
	}
	// Each form's page, whose handlers call this hub in process. Its
	// stamps are signed with the database's key, as a visitor's post may
	// reach another hub than the one that showed the page.
	stampKey, err := h.db.Key(ctx, "stamp", 32)
	if err != nil {
		return nil, err
	}
	var uploadOrigins []string
	if bucket, ok := h.blobs.(*s3blob.Bucket); ok {
		origin, err := bucket.UploadOrigin(ctx)
		if err != nil {
			return nil, err
		}
		uploadOrigins = append(uploadOrigins, origin)
	}
	// The funnels of forms, counted in memory and stored in batches; what
	// is held is stored when the hub stops, before its database closes.
	counter := funnel.NewCounter(h.db, funnel.CounterConfig{Logger: logger})
	h.funnel = counter
	h.closers = append(h.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return counter.Close(ctx)
	})
	pages, err := hosted.New(hosted.Config{HubURL: h.URL, Forms: served, Logger: logger, TurnstileScript: cfg.turnstileScript, StampKey: stampKey, UploadOrigins: uploadOrigins, Counter: counter})
	if err != nil {
		return nil, err
	}
	h.server, err = protocol.NewServer(protocol.Config{
		Forms: served, Store: h.metrics.Store(h.db), Blobs: h.blobs, Uploads: uploads, Logger: logger,
		Admission: quota.New(h.db, nil),
		Funnel:    counter,
		// Apps' counts of their visitors come with a workspace's token.
		CountTokens: countTokens,
		Drafts:      h.db, HostedPages: publicURL + hosted.Path + "/",
		Captcha:        &captcha.Verifier{TurnstileURL: cfg.turnstileVerifyURL, RecaptchaURL: cfg.recaptchaVerify},
		CaptchaSecrets: map[string]string{"turnstile": cfg.turnstileSecret, "recaptcha-v3": cfg.recaptchaSecret},
		MaxBodyBytes:   cfg.maxBody, RateLimit: cfg.rateLimit, TrustedProxies: proxies, Limiter: limiter,
		Mount: append(owners, pages.Mount),
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// handlersExit bounds the wait for handlers to return once their requests
// are cancelled; they stop at their next read or write.
const handlersExit = 10 * time.Second

// Serve serves until ctx is done, then lets requests under way finish for
// the shutdown grace period. Requests still running then are cancelled and
// their connections closed, and Serve waits for their handlers to return,
// so that an upload cut short removes its temporary file before the
// storage is closed. A shutdown that ends so is clean: Serve returns nil.
func (h *runningHub) Serve(ctx context.Context) error {
	sweepCtx, stopSweeping := context.WithCancel(ctx)
	defer stopSweeping()
	go h.server.RunSweeper(sweepCtx, h.cfg.sweepInterval, h.cfg.uploadTTL)
	// Deliveries stop with the hub; one cut short is run again later.
	if err := h.queue.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	defer h.stopQueue()

	// Requests outlive ctx by the grace period, and end with requests.
	requests, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	var running atomic.Int64
	httpServer := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			running.Add(1)
			defer running.Add(-1)
			h.server.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return requests },
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(h.logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- httpServer.Serve(h.ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	h.logger.Info("shutting down: finishing requests under way", slog.Duration("grace", h.cfg.shutdownGrace))
	graceCtx, cancel := context.WithTimeout(context.Background(), h.cfg.shutdownGrace)
	defer cancel()
	err := httpServer.Shutdown(graceCtx)
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	h.logger.Warn("shutting down: grace period over, cancelling requests still running", slog.Int64("requests", running.Load()))
	cancelRequests()
	httpServer.Close()
	// Shutdown polls its connections too; handlers have no other signal.
	for deadline := time.Now().Add(handlersExit); running.Load() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d requests still running %v after they were cancelled", running.Load(), handlersExit)
		}
	}
	h.logger.Info("shut down")
	return nil
}

// stopQueue lets the deliveries under way finish for the shutdown grace
// period, then cancels them.
func (h *runningHub) stopQueue() {
	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.shutdownGrace)
	defer cancel()
	if err := h.queue.Stop(ctx); err != nil {
		h.logger.Warn("shutting down: deliveries cut short, to be retried", slog.Any("error", err))
	}
}

// Close releases the listener and the storage, last opened first.
func (h *runningHub) Close() error {
	var errs []error
	for i := len(h.closers) - 1; i >= 0; i-- {
		if err := h.closers[i](); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// serveHub runs the hub until ctx is done.
func serveHub(ctx context.Context, cfg hubConfig, stdout, stderr io.Writer) error {
	logger, err := newLogger(cfg.logFormat, stderr)
	if err != nil {
		return err
	}
	h, err := openHub(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer h.Close()
	where := "the database"
	if cfg.forms != "" {
		where += " and " + cfg.forms
	}
	fmt.Fprintf(stdout, "hubform hub: serving %s (forms in %s, data in %s)\n", h.URL, where, cfg.data)
	return h.Serve(ctx)
}

// A database is the hub's database as a command's flags name it: the
// PostgreSQL database of --db or, without it, the SQLite file in the data
// directory. Which of the two is decided here alone.
type database struct {
	*sqldb.DB
	postgresURL string // empty for SQLite
}

// openDB opens the database --db names, or without one the SQLite file in
// the data directory. readOnly opens it for reading only, without
// migrating it.
func openDB(ctx context.Context, dbURL, dataDir string, readOnly bool) (*database, error) {
	var db *sqldb.DB
	var err error
	switch {
	case dbURL == "" && readOnly:
		db, err = sqlite.OpenReadOnly(ctx, filepath.Join(dataDir, "hub.db"))
	case dbURL == "":
		db, err = sqlite.Open(ctx, filepath.Join(dataDir, "hub.db"))
	case !strings.HasPrefix(dbURL, "postgres://") && !strings.HasPrefix(dbURL, "postgresql://"):
		// The URL is not repeated: it may hold a password.
		return nil, errors.New("--db: want a postgres:// URL, or nothing for SQLite in the data directory")
	case readOnly:
		db, err = postgres.OpenReadOnly(ctx, dbURL)
	default:
		db, err = postgres.Open(ctx, dbURL)
	}
	if err != nil {
		return nil, err
	}
	return &database{DB: db, postgresURL: dbURL}, nil
}

// shared reports whether several hubs may work on the database: one of
// PostgreSQL, not a SQLite file of one hub's.
func (d *database) shared() bool { return d.postgresURL != "" }

// openQueue opens the delivery queue, whose jobs live in the database
// beside the hub's tables.
func (d *database) openQueue(ctx context.Context, cfg delivery.Config, opts delivery.Options) (*delivery.Queue, error) {
	if d.shared() {
		return delivery.OpenPostgres(ctx, d.postgresURL, cfg, opts)
	}
	return delivery.OpenSQLite(ctx, d.DB, cfg, opts)
}

// fileStore is the hub's file storage, opened.
type fileStore interface {
	blobStore
	io.Closer
}

// openFiles opens the file storage the flags name: the bucket of blobURL
// or, without one, the directory DATA/files. The directory's upload URLs
// point at publicURL and are signed with the key secret returns, which is
// not asked for with a bucket. local is the directory's store, nil with a
// bucket. The hub and the commands that delete files open it alike, so
// that they agree on where a key's file is.
func openFiles(ctx context.Context, blobURL, dataDir, publicURL string, secret func() ([]byte, error)) (files fileStore, local *localblob.Store, err error) {
	if blobURL != "" {
		bucket, err := openBlob(ctx, blobURL)
		if err != nil {
			return nil, nil, err
		}
		return bucket, nil, nil
	}
	key, err := secret()
	if err != nil {
		return nil, nil, err
	}
	if local, err = localblob.Open(ctx, filepath.Join(dataDir, "files"), publicURL+protocol.UploadsPath, key); err != nil {
		return nil, nil, err
	}
	return local, local, nil
}

// openBlob opens the bucket --blob names.
func openBlob(ctx context.Context, blobURL string) (*s3blob.Bucket, error) {
	if !strings.HasPrefix(blobURL, "s3://") {
		return nil, errors.New("--blob: want an s3:// URL, or nothing for files in the data directory")
	}
	return s3blob.Open(ctx, blobURL)
}

// signingSecret returns the configured secret (its length checked by
// openHub), else the one kept in the data directory, made on first use.
func signingSecret(configured, dataDir string) ([]byte, error) {
	if configured != "" {
		return []byte(configured), nil
	}
	path := filepath.Join(dataDir, "signing.key")
	key, err := os.ReadFile(path)
	switch {
	case err == nil && len(key) >= localblob.MinSecretLen:
		return key, nil
	case err == nil:
		return nil, fmt.Errorf("%s holds %d bytes, fewer than the %d of a signing key: remove it to have a new one made (signed upload URLs in flight will then fail)", path, len(key), localblob.MinSecretLen)
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, err
	}
	key = make([]byte, 32)
	rand.Read(key)
	// Written whole to a file of its own, then linked into place: the link
	// is atomic and fails if the key exists, so no process ever reads half
	// a key, and hubs starting together agree on one.
	tmp, err := os.CreateTemp(dataDir, ".signing.key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return signingSecret("", dataDir) // another process made it first
	} else if err != nil {
		return nil, err
	}
	return key, nil
}

func parseCIDRs(flag, list string) ([]*net.IPNet, error) {
	var nets []*net.IPNet
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !strings.Contains(s, "/") {
			if strings.Contains(s, ":") {
				s += "/128"
			} else {
				s += "/32"
			}
		}
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		nets = append(nets, n)
	}
	return nets, nil
}

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// claimDirectorySites makes the forms directory's sites workspace's, those
// it holds now and, through dir, those it gains while the hub runs, whose
// members then see them in the console. A site the database gives to
// another workspace is an error: that workspace would read the submissions
// of the directory's forms.
func claimDirectorySites(ctx context.Context, db *database, dir *formsource.Dir, workspace string) error {
	if _, err := db.Workspace(ctx, workspace); errors.Is(err, hub.ErrNotFound) {
		return fmt.Errorf("--forms-workspace: no workspace %s (hubform workspaces list)", workspace)
	} else if err != nil {
		return err
	}
	dir.Own(workspace, db)
	sites, err := dir.Sites()
	if err != nil {
		return err
	}
	for _, site := range sites {
		if _, err := dir.Claim(ctx, site); err != nil {
			return err
		}
	}
	return nil
}
