package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// HasUsers reports whether the hub has a user: a hub without one offers
// its console's setup page.
func (db *DB) HasUsers(ctx context.Context) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM users LIMIT 1`).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, db.errorf("any user: %w", err)
	}
	return true, nil
}

// CreateFirstAdmin makes u, whose address counts as proved, the hub's
// first user and the admin of workspace, which is created unless it
// exists (a fresh hub's workspaces have no members), in one transaction.
// The error wraps accounts.ErrExists when the hub has a user by then.
func (db *DB) CreateFirstAdmin(ctx context.Context, u accounts.User, workspace string, now time.Time) error {
	if !accounts.ValidWorkspaceName(workspace) {
		return db.errorf("create the first admin: %q is not a workspace name", workspace)
	}
	if u.Email == "" || u.PasswordHash == "" {
		return db.errorf("create the first admin: email and password hash must be set")
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM users LIMIT 1`).Scan(&one)
		if err == nil {
			return accounts.ErrExists
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (email, password_hash, created_at, proved_at) VALUES ($1, $2, $3, $4)`,
			text(u.Email), u.PasswordHash, millis(now), millis(now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO workspaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			workspace, millis(now)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace, email, role, created_at) VALUES ($1, $2, $3, $4)`,
			workspace, text(u.Email), string(accounts.Admin), millis(now))
		return err
	})
	if err != nil {
		return db.errorf("create the first admin: %w", err)
	}
	return nil
}
