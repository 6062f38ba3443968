package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// MailRecipient is what the hub knows of an address a workspace's forms
// list to notify: whether it is a member's, whether it confirmed a link
// mailed to it, and whether it was asked to.
type MailRecipient struct {
	Member, Confirmed, Asked bool
}

// MailRecipient returns what the hub knows of address for workspace. A
// confirmation counts for the workspace it was asked for alone.
func (db *DB) MailRecipient(ctx context.Context, workspace, address string) (MailRecipient, error) {
	var r MailRecipient
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM workspace_members WHERE workspace = $1 AND email = $2`,
		workspace, strings.ToLower(address)).Scan(&one)
	switch {
	case err == nil:
		r.Member = true
		return r, nil
	case !errors.Is(err, sql.ErrNoRows):
		return r, db.errorf("members of %s: %w", workspace, err)
	}
	var confirmed int64
	err = db.r.QueryRowContext(ctx, `SELECT confirmed_at FROM mail_recipients WHERE workspace = $1 AND address = $2`,
		workspace, AddressKey(address)).Scan(&confirmed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return r, nil
	case err != nil:
		return r, db.errorf("mail recipient of %s: %w", workspace, err)
	}
	r.Asked, r.Confirmed = true, confirmed != 0
	return r, nil
}

// AskMailRecipient records that the hub asks address to confirm the mail
// of workspace, and reports whether it had not been asked before: the
// hub asks each address once per workspace, whoever asks first.
func (db *DB) AskMailRecipient(ctx context.Context, workspace, address string, now time.Time) (bool, error) {
	w, err := db.writer()
	if err != nil {
		return false, err
	}
	res, err := w.ExecContext(ctx, `INSERT INTO mail_recipients (workspace, address, asked_at) VALUES ($1, $2, $3)
		ON CONFLICT (workspace, address) DO NOTHING`, workspace, AddressKey(address), millis(now))
	if err != nil {
		return false, db.errorf("asking a mail recipient of %s: %w", workspace, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, db.errorf("asking a mail recipient of %s: %w", workspace, err)
	}
	return n == 1, nil
}

// SetMailRecipientToken keeps tokenHash as the link that confirms address
// for workspace until expires, in place of any before it. It returns an
// error wrapping hub.ErrNotFound when the address was not asked or has
// confirmed already.
func (db *DB) SetMailRecipientToken(ctx context.Context, workspace, address, tokenHash string, expires time.Time) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `UPDATE mail_recipients SET token_hash = $1, expires_at = $2
		WHERE workspace = $3 AND address = $4 AND confirmed_at = 0`, tokenHash, millis(expires), workspace, AddressKey(address))
	if err != nil {
		return db.errorf("a mail recipient's link in %s: %w", workspace, err)
	}
	return db.affected(res, "a mail recipient's link in "+workspace, hub.ErrNotFound)
}

// MailRecipientLink returns the workspace whose mail the link of
// tokenHash confirms, or an error wrapping hub.ErrNotFound when no link
// has it or it expired.
func (db *DB) MailRecipientLink(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	var ws string
	err := db.r.QueryRowContext(ctx, `SELECT workspace FROM mail_recipients WHERE token_hash = $1 AND expires_at > $2`,
		tokenHash, millis(now)).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return "", db.errorf("mail recipient link: %w", hub.ErrNotFound)
	}
	if err != nil {
		return "", db.errorf("mail recipient link: %w", err)
	}
	return ws, nil
}

// ConfirmMailRecipient uses the link of tokenHash: its address now takes
// the mail of the link's workspace, which it returns, and the link works
// no more. The error wraps hub.ErrNotFound when no link has tokenHash or
// it expired.
func (db *DB) ConfirmMailRecipient(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	w, err := db.writer()
	if err != nil {
		return "", err
	}
	var ws string
	err = w.QueryRowContext(ctx, `UPDATE mail_recipients SET confirmed_at = $1, token_hash = NULL
		WHERE token_hash = $2 AND expires_at > $1 RETURNING workspace`, millis(now), tokenHash).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return "", db.errorf("confirming a mail recipient: %w", hub.ErrNotFound)
	}
	if err != nil {
		return "", db.errorf("confirming a mail recipient: %w", err)
	}
	return ws, nil
}

// TakeMail counts n e-mails sent on workspace's behalf on day (see Day),
// and reports whether they keep it within limit that day; ones that do
// not are not counted. Like TakeAutoresponse it is one upsert, atomic
// however many hubs count at once.
func (db *DB) TakeMail(ctx context.Context, workspace string, day, n, limit int64) (bool, error) {
	if n <= 0 {
		return true, nil
	}
	if n > limit {
		return false, nil
	}
	w, err := db.writer()
	if err != nil {
		return false, err
	}
	var count int64
	err = w.QueryRowContext(ctx, `INSERT INTO workspace_mail (workspace, day, count) VALUES ($1, $2, $3)
		ON CONFLICT (workspace, day) DO UPDATE SET count = workspace_mail.count + excluded.count
		WHERE workspace_mail.count + excluded.count <= $4
		RETURNING count`, workspace, day, n, limit).Scan(&count)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // the WHERE held the row back: the quota is spent
	}
	if err != nil {
		return false, db.errorf("mail quota of %s: %w", workspace, err)
	}
	return true, nil
}

// MailSent returns how many e-mails the hub sent on workspace's behalf on
// day (see Day).
func (db *DB) MailSent(ctx context.Context, workspace string, day int64) (int64, error) {
	var n int64
	err := db.r.QueryRowContext(ctx, `SELECT count FROM workspace_mail WHERE workspace = $1 AND day = $2`, workspace, day).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, db.errorf("mail sent by %s: %w", workspace, err)
	}
	return n, nil
}

// TakeMailBudget is TakeAutoresponse in a transaction of its own, for
// e-mail not sent in a submission's transaction, counted under site and
// slug as budgets that belong to no form are: the hub's own requests to
// confirm an address.
func (db *DB) TakeMailBudget(ctx context.Context, site, slug, address string, day int64, limit int) (bool, error) {
	var ok bool
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		ok, err = TakeAutoresponse(ctx, Tx{Tx: tx}, site, slug, address, day, limit)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("%s: %w", db.name, err)
	}
	return ok, nil
}
