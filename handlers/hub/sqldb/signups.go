package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// CreateSignup stores a sign-up of email under the hash of its link's
// token. The error wraps accounts.ErrExists when a user whose address is
// proved has it; an account whose address nobody proved does not keep its
// owner from signing up (see CompleteSignup).
func (db *DB) CreateSignup(ctx context.Context, tokenHash, email string, now, expires time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var proved sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT proved_at FROM users WHERE email = $1`, email).Scan(&proved)
		if err == nil && proved.Valid {
			return accounts.ErrExists
		} else if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return signupLinks.create(ctx, tx, tokenHash, email, now, expires)
	})
	if err != nil {
		return db.errorf("create a sign-up: %w", err)
	}
	return nil
}

// Signup returns the address of the sign-up whose link has the token hash,
// when it can still be used at now; else the error wraps hub.ErrNotFound.
func (db *DB) Signup(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	return signupLinks.email(ctx, db, tokenHash, now)
}

// CompleteSignup uses the sign-up link whose token has the hash, at now:
// in one transaction it creates the user with the password hash, their
// address proved by the link mailed to it, and the workspace, with them as
// its admin. An account of the address that nobody proved is taken over:
// it takes the password hash, and every session and reset link of it ends.
// It returns their address. The error wraps hub.ErrNotFound when the link
// cannot be used (it works once), accounts.ErrExists when the workspace's
// name is taken or a user whose address is proved has it by now.
func (db *DB) CompleteSignup(ctx context.Context, tokenHash, passwordHash, workspace string, now time.Time) (string, error) {
	if !accounts.ValidWorkspaceName(workspace) {
		return "", db.errorf("complete a sign-up: %q is not a workspace name", workspace)
	}
	var email string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if email, err = signupLinks.openAndUse(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		unproved, err := lockUnproved(ctx, tx, email)
		switch {
		case errors.Is(err, hub.ErrNotFound):
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (email, password_hash, created_at, proved_at) VALUES ($1, $2, $3, $4)`,
				email, passwordHash, millis(now), millis(now)); err != nil {
				return err
			}
		case err != nil:
			return err
		case unproved:
			if err := takeOver(ctx, tx, email, passwordHash, now); err != nil {
				return err
			}
		default:
			return accounts.ErrExists
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO workspaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, workspace, millis(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, accounts.ErrExists)
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
