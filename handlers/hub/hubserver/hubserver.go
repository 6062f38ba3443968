// Package hubserver assembles a hub from its configuration: it opens the
// database (SQLite or PostgreSQL) and the file storage (a directory or a
// bucket), the forms, the delivery queue, the console, the admin API, the
// metrics and the forms' own pages, mounts them on the protocol server, and
// serves them until told to stop, shutting down gracefully. The command
// hubform hub is its flags; tests start the same hub in process.
package hubserver

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
	"github.com/hubform/hubform/handlers/hub/backup"
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

// Config is a hub's configuration: the flags of hubform hub, whose names
// the errors of Open use. Addr, Data and the durations are required; the
// rest may be left at zero.
type Config struct {
	// Addr is the address to listen on, host:port; port 0 picks one.
	Addr string
	// Data is the directory of the SQLite database (unless DB is set), the
	// files (unless Blob is set) and the signing key.
	Data string
	// Forms is the forms directory served beside the database's forms;
	// FormsWorkspace the workspace that owns its sites,
	// accounts.DefaultWorkspace when empty.
	Forms, FormsWorkspace string
	// PublicURL is where clients reach the hub; empty: http://Addr.
	PublicURL string
	// OIDCIssuer, OIDCClientID and OIDCClientSecret set up the console's
	// single sign-on, all three or none.
	OIDCIssuer, OIDCClientID, OIDCClientSecret string
	// Signup says who may join the console (console.ParseSignup);
	// empty: invite.
	Signup string
	// DB is a postgres:// URL; empty: SQLite in Data. Blob is an s3:// URL;
	// empty: files in Data.
	DB, Blob string
	// SigningSecret keys the local storage's upload URLs; empty: the one
	// kept in Data/signing.key.
	SigningSecret string
	// The captcha providers' default secrets, siteverify endpoints and the
	// forms' pages' Turnstile script.
	TurnstileSecret, RecaptchaSecret       string
	TurnstileVerifyURL, RecaptchaVerifyURL string
	TurnstileScript                        string
	MaxBody                                int64
	RateLimit                              int
	// TrustedProxies is a comma-separated list of CIDRs.
	TrustedProxies           string
	UploadTTL, SweepInterval time.Duration
	ShutdownGrace            time.Duration
	Delivery                 DeliveryConfig
	Backup                   BackupConfig
}

// Hub is a hub listening on its address, ready to serve.
type Hub struct {
	// URL is the hub URL clients use: the public URL + "/v1".
	URL    string
	logger *slog.Logger
	ln     net.Listener
	// Server is the hub's HTTP handler.
	Server *protocol.Server
	// DB is the hub's database.
	DB *Database
	// Blobs is the hub's file storage.
	Blobs   BlobStore
	queue   *delivery.Queue
	metrics *metrics.Metrics
	// Backups takes the scheduled backups; nil without.
	Backups *backup.Schedule
	closers []func() error
	cfg     Config
	// Funnel counts the forms' funnels; Close stores what it holds.
	Funnel *funnel.Counter
	// setupCode is the code of the console's setup page, empty when the
	// hub had a user when it opened.
	setupCode string
}

// SetupCode returns the one-time code of the console's setup page
// (console.SetupPath) when the hub had no user as it opened, else "". The
// page answers 404 once any user exists.
func (h *Hub) SetupCode() string { return h.setupCode }

// BlobStore is the file storage of a running hub, local or in a bucket.
type BlobStore interface {
	hub.Blobs
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
	// Put stores a file of the hub's own, such as a theme's picture.
	Put(ctx context.Context, key, contentType string, body io.ReadSeeker, size int64) error
}

// Open listens on cfg.Addr and opens the hub's forms and storage.
func Open(ctx context.Context, cfg Config, logger *slog.Logger) (_ *Hub, err error) {
	if cfg.UploadTTL < protocol.MinUploadTTL || cfg.SweepInterval <= 0 {
		return nil, fmt.Errorf("--upload-ttl must be at least %v and --sweep-interval positive", protocol.MinUploadTTL)
	}
	if cfg.ShutdownGrace <= 0 {
		return nil, errors.New("--shutdown-grace must be positive")
	}
	if cfg.SigningSecret != "" && len(cfg.SigningSecret) < localblob.MinSecretLen {
		// Checked before anything is opened, so a bad flag leaves no trace.
		return nil, fmt.Errorf("--signing-secret must be at least %d bytes", localblob.MinSecretLen)
	}
	proxies, err := ParseCIDRs("--trusted-proxies", cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	h := &Hub{logger: logger, cfg: cfg}
	defer func() {
		if err != nil {
			h.Close()
		}
	}()
	if h.ln, err = net.Listen("tcp", cfg.Addr); err != nil {
		return nil, err
	}
	h.closers = append(h.closers, h.ln.Close)
	publicURL := strings.TrimRight(cfg.PublicURL, "/")
	if publicURL == "" {
		publicURL = "http://" + h.ln.Addr().String()
	}
	h.URL = publicURL + "/v1"

	if h.DB, err = OpenDatabase(ctx, cfg.DB, cfg.Data, false); err != nil {
		return nil, err
	}
	h.closers = append(h.closers, h.DB.Close)
	// The forms of the database, and beside them those of the directory,
	// which win a clash (see formsource.Layered).
	served := &formsource.Layered{Stored: formsource.NewStored(h.DB, logger), Brands: h.DB}
	if cfg.Forms != "" {
		if served.Dir, err = formsource.Open(cfg.Forms, logger); err != nil {
			return nil, err
		}
		h.closers = append(h.closers, served.Dir.Close)
		if err := claimDirectorySites(ctx, h.DB, served.Dir, cmp.Or(cfg.FormsWorkspace, accounts.DefaultWorkspace)); err != nil {
			return nil, err
		}
	}
	files, local, err := OpenFiles(ctx, cfg.Blob, cfg.Data, publicURL, func() ([]byte, error) {
		return signingSecret(cfg.SigningSecret, cfg.Data)
	})
	if err != nil {
		return nil, err
	}
	h.closers = append(h.closers, files.Close)
	h.Blobs = files
	// Uploads serves the PUTs of local storage; a bucket takes its own.
	var uploads http.Handler
	if local != nil {
		uploads = local.PutHandler(h.DB)
	}
	h.metrics = metrics.New(logger)
	if h.queue, err = openDelivery(ctx, cfg, h.DB, served, h.Blobs, publicURL, h.metrics.OnAttempt, logger); err != nil {
		return nil, err
	}
	h.metrics.CountQueue(h.queue.Depth)
	if h.Backups, err = h.openBackups(ctx, cfg, logger); err != nil {
		return nil, err
	}
	h.closers = append(h.closers, func() error { h.queue.Close(); return nil })
	var limiter hub.Limiter
	if h.DB.Shared() {
		// Hubs sharing a database share each client's budget through it.
		// One hub on SQLite counts in memory: a synced commit per counted
		// request would buy nothing there.
		limiter = h.DB
	}
	var sso *console.OIDC
	if cfg.OIDCIssuer != "" || cfg.OIDCClientID != "" {
		if cfg.OIDCIssuer == "" || cfg.OIDCClientID == "" || cfg.OIDCClientSecret == "" {
			return nil, errors.New("--oidc-issuer, --oidc-client-id and --oidc-client-secret go together")
		}
		if sso, err = console.NewOIDC(ctx, cfg.OIDCIssuer, cfg.OIDCClientID, cfg.OIDCClientSecret, publicURL); err != nil {
			return nil, fmt.Errorf("--oidc-issuer: %w", err)
		}
	}
	signup, err := console.ParseSignup(cmp.Or(cfg.Signup, string(console.SignupInvite)))
	if err != nil {
		return nil, fmt.Errorf("--signup %w", err)
	}
	// A hub without a user offers the console's setup page, behind a code
	// of its own that SetupCode returns for the command to print.
	var setup *console.Setup
	if users, err := h.DB.HasUsers(ctx); err != nil {
		return nil, err
	} else if !users {
		setup = &console.Setup{Code: console.NewSetupCode(), Store: h.DB, Workspace: cmp.Or(cfg.FormsWorkspace, accounts.DefaultWorkspace)}
		h.setupCode = setup.Code
	}
	opts := consoleOptions{publicURL: publicURL, sso: sso, signup: signup, setup: setup}
	if h.Backups != nil {
		opts.backups = h.Backups
	}
	owners, countTokens, err := ownerRoutes(h.DB.DB, served, h.Blobs, h.queue, h.metrics, logger, opts)
	if err != nil {
		return nil, err
	}
	// Each form's page, whose handlers call this hub in process. Its
	// stamps are signed with the database's key, as a visitor's post may
	// reach another hub than the one that showed the page.
	stampKey, err := h.DB.Key(ctx, "stamp", 32)
	if err != nil {
		return nil, err
	}
	var uploadOrigins []string
	if bucket, ok := h.Blobs.(*s3blob.Bucket); ok {
		origin, err := bucket.UploadOrigin(ctx)
		if err != nil {
			return nil, err
		}
		uploadOrigins = append(uploadOrigins, origin)
	}
	// The funnels of forms, counted in memory and stored in batches; what
	// is held is stored when the hub stops, before its database closes.
	counter := funnel.NewCounter(h.DB, funnel.CounterConfig{Logger: logger})
	h.Funnel = counter
	h.closers = append(h.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return counter.Close(ctx)
	})
	pages, err := hosted.New(hosted.Config{HubURL: h.URL, Forms: served, Logger: logger, TurnstileScript: cfg.TurnstileScript, StampKey: stampKey, UploadOrigins: uploadOrigins, Counter: counter})
	if err != nil {
		return nil, err
	}
	h.Server, err = protocol.NewServer(protocol.Config{
		Forms: served, Store: h.metrics.Store(h.DB), Blobs: h.Blobs, Uploads: uploads, Logger: logger,
		Admission: quota.New(h.DB, nil),
		Funnel:    counter,
		// Apps' counts of their visitors come with a workspace's token.
		CountTokens: countTokens,
		Drafts:      h.DB, HostedPages: publicURL + hosted.Path + "/",
		Captcha:        &captcha.Verifier{TurnstileURL: cfg.TurnstileVerifyURL, RecaptchaURL: cfg.RecaptchaVerifyURL},
		CaptchaSecrets: map[string]string{"turnstile": cfg.TurnstileSecret, "recaptcha-v3": cfg.RecaptchaSecret},
		MaxBodyBytes:   cfg.MaxBody, RateLimit: cfg.RateLimit, TrustedProxies: proxies, Limiter: limiter,
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
func (h *Hub) Serve(ctx context.Context) error {
	sweepCtx, stopSweeping := context.WithCancel(ctx)
	defer stopSweeping()
	go h.Server.RunSweeper(sweepCtx, h.cfg.SweepInterval, h.cfg.UploadTTL)
	if h.Backups != nil {
		go h.Backups.Run(sweepCtx)
	}
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
			h.Server.ServeHTTP(w, r)
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
	h.logger.Info("shutting down: finishing requests under way", slog.Duration("grace", h.cfg.ShutdownGrace))
	graceCtx, cancel := context.WithTimeout(context.Background(), h.cfg.ShutdownGrace)
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
func (h *Hub) stopQueue() {
	ctx, cancel := context.WithTimeout(context.Background(), h.cfg.ShutdownGrace)
	defer cancel()
	if err := h.queue.Stop(ctx); err != nil {
		h.logger.Warn("shutting down: deliveries cut short, to be retried", slog.Any("error", err))
	}
}

// Close releases the listener and the storage, last opened first.
func (h *Hub) Close() error {
	var errs []error
	for i := len(h.closers) - 1; i >= 0; i-- {
		if err := h.closers[i](); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Database is the hub's database as a command's flags name it: the
// PostgreSQL database of --db or, without it, the SQLite file in the data
// directory. Which of the two is decided here alone.
type Database struct {
	*sqldb.DB
	postgresURL string // empty for SQLite
}

// OpenDatabase opens the database --db names, or without one the SQLite file in
// the data directory. readOnly opens it for reading only, without
// migrating it.
func OpenDatabase(ctx context.Context, dbURL, dataDir string, readOnly bool) (*Database, error) {
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
	return &Database{DB: db, postgresURL: dbURL}, nil
}

// Shared reports whether several hubs may work on the database: one of
// PostgreSQL, not a SQLite file of one hub's.
func (d *Database) Shared() bool { return d.postgresURL != "" }

// OpenQueue opens the delivery queue, whose jobs live in the database
// beside the hub's tables.
func (d *Database) OpenQueue(ctx context.Context, cfg delivery.Config, opts delivery.Options) (*delivery.Queue, error) {
	if d.Shared() {
		return delivery.OpenPostgres(ctx, d.postgresURL, cfg, opts)
	}
	return delivery.OpenSQLite(ctx, d.DB, cfg, opts)
}

// FileStore is the hub's file storage, opened.
type FileStore interface {
	BlobStore
	io.Closer
}

// OpenFiles opens the file storage the flags name: the bucket of blobURL
// or, without one, the directory DATA/files. The directory's upload URLs
// point at publicURL and are signed with the key secret returns, which is
// not asked for with a bucket. local is the directory's store, nil with a
// bucket. The hub and the commands that delete files open it alike, so
// that they agree on where a key's file is.
func OpenFiles(ctx context.Context, blobURL, dataDir, publicURL string, secret func() ([]byte, error)) (files FileStore, local *localblob.Store, err error) {
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
// Open), else the one kept in the data directory, made on first use.
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

// ParseCIDRs parses a comma-separated list of CIDRs, or of bare addresses
// (one host each), for the flag named flag.
func ParseCIDRs(flag, list string) ([]*net.IPNet, error) {
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

// claimDirectorySites makes the forms directory's sites workspace's, those
// it holds now and, through dir, those it gains while the hub runs, whose
// members then see them in the console. A site the database gives to
// another workspace is an error: that workspace would read the submissions
// of the directory's forms.
func claimDirectorySites(ctx context.Context, db *Database, dir *formsource.Dir, workspace string) error {
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
