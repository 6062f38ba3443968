package hubserver

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/images"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/metrics"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// ownerRoutes returns what the hub mounts for its owners: the console,
// the admin API and the metrics, both on the hub's database, so that a session or a token
// any hub on it made is accepted by all; and the check of the tokens apps
// present with their counts, the admin API's. Sign-in attempts are counted in
// the database too, even on SQLite: they are few, and a budget shared by
// every hub is the point.
func ownerRoutes(db *sqldb.DB, served *formsource.Layered, files BlobStore, queue *delivery.Queue, m *metrics.Metrics, logger *slog.Logger, opts consoleOptions) ([]func(*echo.Echo), hub.CountTokens, error) {
	mailer, from := queue.Mailer()
	submissions := &inbox.Inbox{Forms: served, Store: db, Files: files, Logger: logger}
	// A person's data is erased from the stores the hub itself writes: its
	// database, its files and its queue of deliveries.
	person := &privacy.People{Store: db, Files: files, Deliveries: queue, Logger: logger}
	sites := siteOwners{DB: db, dir: served.Dir}
	// What owners change goes through the services of package manage,
	// which the console and the admin API share.
	services := manage.Config{Sites: sites, Audit: db, Logger: logger}
	forms, changes, data := manage.NewForms(services, db), manage.NewSubmissions(services, submissions, db, queue), manage.NewPrivacy(services, person)
	brands := manage.NewBrands(services, db)
	brands.Changed = served.BrandChanged
	con, err := console.New(console.Config{
		Users: db, Workspaces: sites, Audit: db, Sessions: db.Sessions(), Limiter: db, Forms: served, Store: db, Logger: logger,
		Members: manage.NewMembers(services, db), Invitations: manage.NewInvitations(services, db),
		Tokens: manage.NewTokens(services, db), Sites: manage.NewWorkspaces(services, sites), Brands: brands,
		Images: manage.NewImages(services, db, files, opts.publicURL),
		Secure: strings.HasPrefix(opts.publicURL, "https://"), PublicURL: opts.publicURL, Mailer: mailer, MailFrom: from,
		Inbox: submissions, Deliveries: queue, ChatTester: queue, Digests: db, OIDC: opts.sso, Signup: opts.signup,
		FormChanges: forms, SubmissionChanges: changes, Privacy: data, Funnel: db, Summaries: db, Setup: opts.setup, Backups: opts.backups,
	})
	if err != nil {
		return nil, nil, err
	}
	api, err := admin.New(admin.Config{Tokens: db, Sites: sites, Audit: db, Forms: db, FormChanges: forms, Directory: served,
		Inbox: submissions, SubmissionChanges: changes, Privacy: data, Funnel: db, Logger: logger})
	if err != nil {
		return nil, nil, err
	}
	// The metrics need a hub-wide token of scope metrics.
	withMetrics := func(e *echo.Echo) { m.Register(e, api.RequireMetricsToken) }
	// The themes' pictures are served to anyone, as the forms showing them.
	pictures := echo.WrapHandler(&images.Handler{Store: db, Files: files, Logger: logger})
	withImages := func(e *echo.Echo) {
		e.GET(images.Path+":name", pictures)
		e.HEAD(images.Path+":name", pictures)
	}
	return []func(*echo.Echo){con.Register, api.Register, withMetrics, withImages}, api, nil
}

// consoleOptions are the console's settings of the hub's flags.
type consoleOptions struct {
	// publicURL starts the links the console e-mails; an https:// one
	// marks its cookies Secure.
	publicURL string
	// sso, when set, is the console's single sign-on.
	sso    *console.OIDC
	signup console.Signup
	// setup, when set, is the setup page of a hub that started without a
	// user.
	setup *console.Setup
	// backups, when set, are the hub's scheduled backups.
	backups console.BackupSchedule
}

// siteOwners is the database as the console and the admin API ask it who
// owns a site: a site the forms directory holds is claimed for the
// directory's workspace the moment it is asked about, before any other
// workspace can claim it, however recently the directory gained it.
type siteOwners struct {
	*sqldb.DB
	// dir is the forms directory, nil when there is none.
	dir *formsource.Dir
}

// SiteWorkspace returns the workspace that owns site, as the database does.
func (s siteOwners) SiteWorkspace(ctx context.Context, site string) (string, error) {
	if err := s.claimHeld(ctx, site); err != nil {
		return "", err
	}
	return s.DB.SiteWorkspace(ctx, site)
}

// ClaimSite gives site to workspace unless another owns it, as the
// database does: a site of the forms directory is the directory's
// workspace's first.
func (s siteOwners) ClaimSite(ctx context.Context, site, workspace string, now time.Time) (string, error) {
	if err := s.claimHeld(ctx, site); err != nil {
		return "", err
	}
	return s.DB.ClaimSite(ctx, site, workspace, now)
}

// claimHeld claims site for the directory's workspace when the directory
// holds it. A site another workspace owned first stays that workspace's,
// and the directory serves none of its forms.
func (s siteOwners) claimHeld(ctx context.Context, site string) error {
	if s.dir == nil {
		return nil
	}
	_, err := s.dir.Claim(ctx, site)
	var conflict *formsource.SiteConflictError
	if errors.As(err, &conflict) {
		return nil
	}
	return err
}
