package main

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

// deliveryConfig is the hub command's configuration of deliveries.
type deliveryConfig struct {
	allowNets string
	timeout   time.Duration
	backoff   time.Duration
	smtpURL   string
	smtpFrom  string
}

// addDeliveryFlags adds the flags of deliveries to fs.
func addDeliveryFlags(fs *flagSet, cfg *deliveryConfig) {
	fs.StringVar(&cfg.smtpURL, "smtp-url", "", "`URL` of the SMTP server e-mail goes through, for forms that ask for it:\nsmtp://USER:PASSWORD@HOST:PORT (STARTTLS required; ?tls=opportunistic or\n?tls=none to relax) or smtps://… (TLS); empty: no e-mail")
	fs.StringVar(&cfg.smtpFrom, "smtp-from", "", "`ADDRESS` e-mail is sent from; required with --smtp-url")
	fs.StringVar(&cfg.allowNets, "webhook-allow-nets", "", "comma-separated `CIDRS` of private networks webhook receivers may be in;\nempty: receivers must have public addresses")
	fs.DurationVar(&cfg.timeout, "delivery-timeout", delivery.DefaultTimeout, "how long one delivery attempt may take; a delivery running on a hub that\ndied is taken up by a live one 1.5 times this long after it began, within\nanother 30s")
	fs.DurationVar(&cfg.backoff, "delivery-backoff", delivery.DefaultBackoff, "delay before a failed delivery's first retry, doubling up to 1h; deliveries\nare retried for 24h whatever it is; tests make it short")
}

// openDelivery opens the delivery queue in the hub's database, has db
// insert each submission's deliveries with it, and returns it unstarted;
// onAttempt hears of each attempt. The links that ask an address to take
// a workspace's notifications lead to the console under publicURL.
func openDelivery(ctx context.Context, cfg hubConfig, db *database, served hub.FormSource, files delivery.Files, publicURL string, onAttempt func(kind, outcome string), logger *slog.Logger) (*delivery.Queue, error) {
	dc := cfg.delivery
	// Zero, as other commands leave them, means the defaults.
	if dc.timeout < 0 || dc.backoff < 0 {
		return nil, errors.New("--delivery-timeout and --delivery-backoff must be positive")
	}
	allow, err := parseCIDRs("--webhook-allow-nets", dc.allowNets)
	if err != nil {
		return nil, err
	}
	qc := delivery.Config{
		Forms: served, Submissions: db, Drafts: db, Recipients: db, ConfirmURL: publicURL + console.RecipientsPath,
		AllowNetworks: allow, Files: files,
		Timeout: dc.timeout, Backoff: dc.backoff, OnAttempt: onAttempt, Logger: logger,
	}
	if dc.smtpURL != "" {
		if _, err := mail.ParseAddress(dc.smtpFrom); err != nil {
			return nil, errors.New("--smtp-from: want the address e-mail is sent from, such as forms@example.com")
		}
		if qc.Mailer, err = delivery.NewSMTP(dc.smtpURL, cmp.Or(dc.timeout, delivery.DefaultTimeout)); err != nil {
			return nil, fmt.Errorf("--smtp-url: %w", err)
		}
		qc.MailFrom = dc.smtpFrom
	}
	q, err := db.openQueue(ctx, qc, delivery.Options{Work: true})
	if err != nil {
		return nil, fmt.Errorf("opening the delivery queue: %w", err)
	}
	db.SetSubmissionHook(q.Hook())
	db.SetDraftHook(q.DraftHook())
	return q, nil
}
