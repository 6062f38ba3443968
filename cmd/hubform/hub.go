package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/protocol"
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

// hubConfig is the hub command's configuration: the hub's, and its log's
// format.
type hubConfig struct {
	hubserver.Config
	logFormat string
}

func runHub(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg hubConfig
	fs := newFlagSet("hub", hubHelp, hubTail, stderr)
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8081", "`ADDR` to listen on, host:port")
	fs.StringVar(&cfg.Data, "data", "hubform-data", "`DIR` for the database, files and signing key")
	fs.StringVar(&cfg.DB, "db", "", "database `URL`: postgres://USER:PASSWORD@HOST:PORT/DB for hubs sharing\none database; empty: SQLite in DATA/hub.db")
	fs.StringVar(&cfg.Blob, "blob", "", "file storage `URL`: s3://BUCKET?region=R[&endpoint=URL] for an S3-compatible\nbucket clients upload to directly, with credentials from AWS_ACCESS_KEY_ID and\nAWS_SECRET_ACCESS_KEY; empty: DATA/files, uploaded through the hub")
	fs.StringVar(&cfg.Forms, "forms", "", "`DIR` of forms, DIR/<site>/<slug>.json, served read-only beside the\ndatabase's forms; empty: the database's forms only")
	fs.StringVar(&cfg.FormsWorkspace, "forms-workspace", accounts.DefaultWorkspace, "the `WORKSPACE` that owns the sites of --forms, claimed at start and as\nthey appear; a site another workspace owns stops the hub")
	fs.StringVar(&cfg.PublicURL, "public-url", "", "`URL` clients reach the hub at, used in signed upload URLs;\nempty: http://ADDR")
	fs.StringVar(&cfg.OIDCIssuer, "oidc-issuer", "", "`URL` of an OpenID Connect provider the console offers single sign-on with;\nits redirect URL is PUBLIC-URL/console/sso/callback")
	fs.StringVar(&cfg.Signup, "signup", string(console.SignupInvite), "who may join the console: closed (the operator adds people), invite (admins also\ninvite people to their workspace) or open (anyone also signs up, with a\nworkspace of their own, once their e-mail address is confirmed)")
	fs.StringVar(&cfg.OIDCClientID, "oidc-client-id", "", "the console's client `ID` at the provider")
	fs.StringVar(&cfg.OIDCClientSecret, "oidc-client-secret", "", "the console's client `SECRET` at the provider")
	fs.StringVar(&cfg.SigningSecret, "signing-secret", "", "`SECRET` of at least 32 bytes signing upload URLs; hubs sharing\nstorage share it; empty: one kept in DATA/signing.key; unused with --blob,\nwhose URLs the bucket's credentials sign")
	fs.StringVar(&cfg.TurnstileSecret, "turnstile-secret", "", "Turnstile `SECRET` for forms whose settings name none")
	fs.StringVar(&cfg.RecaptchaSecret, "recaptcha-secret", "", "reCAPTCHA `SECRET` for forms whose settings name none")
	fs.StringVar(&cfg.TurnstileVerifyURL, "turnstile-verify-url", captcha.TurnstileVerifyURL, "Turnstile siteverify `URL`")
	fs.StringVar(&cfg.RecaptchaVerifyURL, "recaptcha-verify-url", captcha.RecaptchaVerifyURL, "reCAPTCHA siteverify `URL`")
	fs.StringVar(&cfg.TurnstileScript, "turnstile-script-url", "", "Turnstile script `URL` of the forms' pages; empty: Cloudflare's")
	fs.Int64Var(&cfg.MaxBody, "max-body", protocol.DefaultMaxBodyBytes, "largest submit body in `BYTES`")
	fs.IntVar(&cfg.RateLimit, "rate-limit", int(protocol.DefaultRateLimit), "upload-url and submit requests per minute per client, and apart posts of counts without a token; 0: no limit")
	fs.StringVar(&cfg.TrustedProxies, "trusted-proxies", "", "comma-separated `CIDRS` of proxies and host apps whose X-Forwarded-For\nnames the client; empty: the client is the socket's address")
	fs.DurationVar(&cfg.UploadTTL, "upload-ttl", 24*time.Hour, "delete uploads no submission claimed after this long")
	fs.DurationVar(&cfg.SweepInterval, "sweep-interval", 10*time.Minute, "how often to look for such uploads, and delete submissions past their form's retentionDays")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", 30*time.Second, "on SIGINT or SIGTERM, how long requests under way may take to finish\nbefore they are cancelled")
	addDeliveryFlags(fs, &cfg.Delivery)
	fs.DurationVar(&cfg.Backup.Every, "backup-every", 0, "take a backup of DATA this often (as hubform backup does), one at a time\nacross the processes on DATA; 0: none; SQLite only")
	fs.StringVar(&cfg.Backup.To, "backup-to", "", "where scheduled backups go: a `DEST` directory, or s3://BUCKET/PREFIX?QUERY\nwith the settings of --blob")
	fs.IntVar(&cfg.Backup.Keep, "backup-keep", 14, "how many scheduled backups to keep in DEST, the newest; 0: all")
	backupMaxRate := maxRateFlag(fs, "backup-max-rate")
	fs.StringVar(&cfg.logFormat, "log-format", "text", "`FORMAT` of the log on standard error: text or json")
	if _, status, ok := fs.parse(args, stdout); !ok {
		return status
	}
	cfg.Backup.MaxRate = *backupMaxRate * 1e6
	if err := serveHub(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "hubform hub: %v\n", err)
		return 1
	}
	return 0
}

// serveHub runs the hub until ctx is done.
func serveHub(ctx context.Context, cfg hubConfig, stdout, stderr io.Writer) error {
	logger, err := newLogger(cfg.logFormat, stderr)
	if err != nil {
		return err
	}
	h, err := hubserver.Open(ctx, cfg.Config, logger)
	if err != nil {
		return err
	}
	defer h.Close()
	where := "the database"
	if cfg.Forms != "" {
		where += " and " + cfg.Forms
	}
	fmt.Fprintf(stdout, "hubform hub: serving %s (forms in %s, data in %s)\n", h.URL, where, cfg.Data)
	if code := h.SetupCode(); code != "" {
		fmt.Fprintf(stdout, "hubform hub: no account yet: set the hub up at %s%s with the code %s (it works once)\n",
			strings.TrimSuffix(h.URL, "/v1"), console.SetupPath, code)
	}
	return h.Serve(ctx)
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

// addDeliveryFlags adds the flags of deliveries to fs.
func addDeliveryFlags(fs *flagSet, cfg *hubserver.DeliveryConfig) {
	fs.StringVar(&cfg.SMTPURL, "smtp-url", "", "`URL` of the SMTP server e-mail goes through, for forms that ask for it:\nsmtp://USER:PASSWORD@HOST:PORT (STARTTLS required; ?tls=opportunistic or\n?tls=none to relax) or smtps://… (TLS); empty: no e-mail")
	fs.StringVar(&cfg.SMTPFrom, "smtp-from", "", "`ADDRESS` e-mail is sent from; required with --smtp-url")
	fs.StringVar(&cfg.AllowNets, "webhook-allow-nets", "", "comma-separated `CIDRS` of private networks webhook receivers may be in;\nempty: receivers must have public addresses")
	fs.DurationVar(&cfg.Timeout, "delivery-timeout", delivery.DefaultTimeout, "how long one delivery attempt may take; a delivery running on a hub that\ndied is taken up by a live one 1.5 times this long after it began, within\nanother 30s")
	fs.DurationVar(&cfg.Backoff, "delivery-backoff", delivery.DefaultBackoff, "delay before a failed delivery's first retry, doubling up to 1h; deliveries\nare retried for 24h whatever it is; tests make it short")
}
