package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// oneTimeLink is a table of links that work once before they expire:
// sign-ups, password resets and invitations. Each row is kept under the
// hash of its link's token, with its expiry and the column that marks it
// used.
type oneTimeLink struct {
	// table and used are this package's constants, never input: they go
	// into the SQL as they are.
	table, used string
	// what names a link of the table in errors.
	what string
}

var (
	signupLinks     = oneTimeLink{table: "signups", used: "used_at", what: "sign-up"}
	resetLinks      = oneTimeLink{table: "password_resets", used: "used_at", what: "reset"}
	invitationLinks = oneTimeLink{table: "invitations", used: "accepted_at", what: "invitation"}
)

// create stores a link of email under tokenHash, made at now and working
// until expires.
func (l oneTimeLink) create(ctx context.Context, tx *sql.Tx, tokenHash, email string, now, expires time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO `+l.table+` (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		tokenHash, text(email), millis(now), millis(expires))
	return err
}

// open scans columns of the link of tokenHash into dest, when the link can
// still be used at now; else the error wraps hub.ErrNotFound.
func (l oneTimeLink) open(ctx context.Context, q querier, tokenHash string, now time.Time, columns string, dest ...any) error {
	err := q.QueryRowContext(ctx, `SELECT `+columns+` FROM `+l.table+` WHERE token_hash = $1 AND `+l.used+` IS NULL AND expires_at > $2`,
		tokenHash, millis(now)).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("no open %s: %w", l.what, hub.ErrNotFound)
	}
	return err
}

// email returns the address of the link of tokenHash that can still be
// used at now, read in db's own connection; else the error wraps
// hub.ErrNotFound.
func (l oneTimeLink) email(ctx context.Context, db *DB, tokenHash string, now time.Time) (string, error) {
	var email string
	if err := l.open(ctx, db.r, tokenHash, now, "email", &email); err != nil {
		return "", db.errorf("%s: %w", l.what, err)
	}
	return email, nil
}

// use marks the link of tokenHash used at now, unless it was already:
// then the error wraps hub.ErrNotFound. Of two transactions using one link
// at once, one wins.
func (l oneTimeLink) use(ctx context.Context, tx *sql.Tx, tokenHash string, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE `+l.table+` SET `+l.used+` = $1 WHERE token_hash = $2 AND `+l.used+` IS NULL`, millis(now), tokenHash)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(err, hub.ErrNotFound)
	}
	return nil
}

// openAndUse uses the link of tokenHash at now, in tx, and returns its
// address; the error wraps hub.ErrNotFound when it cannot be used.
func (l oneTimeLink) openAndUse(ctx context.Context, tx *sql.Tx, tokenHash string, now time.Time) (string, error) {
	var email string
	if err := l.open(ctx, tx, tokenHash, now, "email", &email); err != nil {
		return "", err
	}
	return email, l.use(ctx, tx, tokenHash, now)
}
