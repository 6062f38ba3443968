package hubserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
)

// DeliveryConfig configures deliveries: the flags of hubform hub that
// start with --smtp, --webhook and --delivery.
type DeliveryConfig struct {
	// AllowNets is a comma-separated list of CIDRs of private networks
	// webhook receivers may be in.
	AllowNets string
	// Timeout and Backoff are one attempt's limit and the first retry's
	// delay; zero: the defaults.
	Timeout, Backoff time.Duration
	// SMTPURL is the server e-mail goes through, SMTPFrom the address it is
	// sent from; no e-mail without SMTPURL.
	SMTPURL, SMTPFrom string
}

// openDelivery opens the delivery queue in the hub's database, has db
// insert each submission's deliveries with it, and returns it unstarted;
// onAttempt hears of each attempt. The links that ask an address to take
// a workspace's notifications lead to the console under publicURL.
func openDelivery(ctx context.Context, cfg Config, db *Database, served hub.FormSource, files delivery.Files, publicURL string, onAttempt func(kind, outcome string), logger *slog.Logger) (*delivery.Queue, error) {
	dc := cfg.Delivery
	// Zero, as other commands leave them, means the defaults.
	if dc.Timeout < 0 || dc.Backoff < 0 {
		return nil, errors.New("--delivery-timeout and --delivery-backoff must be positive")
	}
	allow, err := ParseCIDRs("--webhook-allow-nets", dc.AllowNets)
	if err != nil {
		return nil, err
	}
	qc := delivery.Config{
		Forms: served, Submissions: db, Drafts: db, Recipients: db, ConfirmURL: publicURL + console.RecipientsPath,
		Links: console.Links{Base: publicURL}, Digests: db, AllowNetworks: allow, Files: files,
		Timeout: dc.Timeout, Backoff: dc.Backoff, OnAttempt: onAttempt, Logger: logger,
	}
	if dc.SMTPURL != "" {
		if _, err := mail.ParseAddress(dc.SMTPFrom); err != nil {
			return nil, errors.New("--smtp-from: want the address e-mail is sent from, such as forms@example.com")
		}
		if qc.Mailer, err = delivery.NewSMTP(dc.SMTPURL, cmp.Or(dc.Timeout, delivery.DefaultTimeout)); err != nil {
			return nil, fmt.Errorf("--smtp-url: %w", err)
		}
		qc.MailFrom = dc.SMTPFrom
	}
	q, err := db.OpenQueue(ctx, qc, delivery.Options{Work: true})
	if err != nil {
		return nil, fmt.Errorf("opening the delivery queue: %w", err)
	}
	db.SetSubmissionHook(q.Hook())
	db.SetDraftHook(q.DraftHook())
	return q, nil
}
