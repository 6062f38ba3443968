package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// CreateSignup stores a sign-up of email under the hash of its link's
// token. The error wraps accounts.ErrExists when a user has the address.
func (db *DB) CreateSignup(ctx context.Context, tokenHash, email string, now, expires time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, email); err == nil {
			return accounts.ErrExists
		} else if !errors.Is(err, hub.ErrNotFound) {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO signups (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			tokenHash, text(email), millis(now), millis(expires))
		return err
	})
	if err != nil {
		return db.errorf("create a sign-up: %w", err)
	}
	return nil
}

// Signup returns the address of the sign-up whose link has the token hash,
// when it can still be used at now; else the error wraps hub.ErrNotFound.
func (db *DB) Signup(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	email, err := openSignup(ctx, db.r, tokenHash, now)
	if err != nil {
		return "", db.errorf("sign-up: %w", err)
	}
	return email, nil
}

func openSignup(ctx context.Context, q querier, tokenHash string, now time.Time) (string, error) {
	var email string
	err := q.QueryRowContext(ctx, `SELECT email FROM signups WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
		tokenHash, millis(now)).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("no open sign-up: %w", hub.ErrNotFound)
	}
	return email, err
}

// CompleteSignup uses the sign-up link whose token has the hash, at now:
// in one transaction it creates the user with the password hash, their
// address proved by the link mailed to it, and the workspace, with them as
// its admin. It returns their address. The error
// wraps hub.ErrNotFound when the link cannot be used (it works once),
// accounts.ErrExists when the workspace's name is taken or a user has the
// address by now.
func (db *DB) CompleteSignup(ctx context.Context, tokenHash, passwordHash, workspace string, now time.Time) (string, error) {
	if !accounts.ValidWorkspaceName(workspace) {
		return "", db.errorf("complete a sign-up: %q is not a workspace name", workspace)
	}
	var email string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if email, err = openSignup(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		if err := useLink(ctx, tx, "signups", "used_at", tokenHash, now); err != nil {
			return err
		}
		for _, insert := range []struct {
			query string
			args  []any
		}{
			{`INSERT INTO users (email, password_hash, created_at, proved_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING`, []any{email, passwordHash, millis(now), millis(now)}},
			{`INSERT INTO workspaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, []any{workspace, millis(now)}},
		} {
			res, err := tx.ExecContext(ctx, insert.query, insert.args...)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return errors.Join(err, accounts.ErrExists)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace, email, role, created_at) VALUES ($1, $2, $3, $4)`,
			workspace, email, string(accounts.Admin), millis(now))
		return err
	})
	if err != nil {
		return "", db.errorf("complete a sign-up: %w", err)
	}
	return email, nil
}
