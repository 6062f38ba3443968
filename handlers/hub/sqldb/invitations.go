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

// CreateInvitation stores inv under the hash of its link's token. The
// error wraps hub.ErrNotFound when the workspace does not exist.
func (db *DB) CreateInvitation(ctx context.Context, tokenHash string, inv accounts.Invitation) error {
	if _, err := accounts.ParseRole(string(inv.Role)); err != nil {
		return db.errorf("create invitation: %w", err)
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := workspaceExists(ctx, tx, inv.Workspace); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO invitations (token_hash, workspace, email, role, invited_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			tokenHash, inv.Workspace, text(inv.Email), string(inv.Role), text(inv.InvitedBy), millis(inv.CreatedAt), millis(inv.ExpiresAt))
		return err
	})
	if err != nil {
		return db.errorf("create invitation of %s to %s: %w", inv.Email, inv.Workspace, err)
	}
	return nil
}

// Invitation returns the invitation whose token has the hash, when it can
// still be accepted at now; else the error wraps hub.ErrNotFound, whether
// it never existed, expired or was accepted.
func (db *DB) Invitation(ctx context.Context, tokenHash string, now time.Time) (accounts.Invitation, error) {
	inv, err := openInvitation(ctx, db.r, tokenHash, now)
	if err != nil {
		return inv, db.errorf("invitation: %w", err)
	}
	return inv, nil
}

func openInvitation(ctx context.Context, q querier, tokenHash string, now time.Time) (accounts.Invitation, error) {
	var inv accounts.Invitation
	var created, expires int64
	err := q.QueryRowContext(ctx, `SELECT workspace, email, role, invited_by, created_at, expires_at FROM invitations
		WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > $2`, tokenHash, millis(now)).
		Scan(&inv.Workspace, &inv.Email, &inv.Role, &inv.InvitedBy, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return inv, fmt.Errorf("no open invitation: %w", hub.ErrNotFound)
	}
	inv.CreatedAt, inv.ExpiresAt = fromMillis(created), fromMillis(expires)
	return inv, err
}

// AcceptInvitation accepts the invitation whose token has the hash, at
// now, in one transaction: it adds the invited user when no user has the
// address, with passwordHash (which must then be set), and makes them a
// member of the workspace with the invitation's role, or gives a member
// that role. It returns the invitation and whether the user was added. The
// error wraps hub.ErrNotFound when the invitation cannot be accepted
// (see Invitation): a link works once.
func (db *DB) AcceptInvitation(ctx context.Context, tokenHash, passwordHash string, now time.Time) (accounts.Invitation, bool, error) {
	var inv accounts.Invitation
	added := false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if inv, err = openInvitation(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		if err := useLink(ctx, tx, "invitations", "accepted_at", tokenHash, now); err != nil {
			return err
		}
		if err := userExists(ctx, tx, inv.Email); errors.Is(err, hub.ErrNotFound) {
			if passwordHash == "" {
				return errors.New("a new user needs a password")
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (email, password_hash, created_at) VALUES ($1, $2, $3)`,
				inv.Email, passwordHash, millis(now)); err != nil {
				return err
			}
			added = true
		} else if err != nil {
			return err
		}
		if inv.Role != accounts.Admin {
			if err := keepsAnAdmin(ctx, tx, inv.Workspace, inv.Email); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace, email, role, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (workspace, email) DO UPDATE SET role = excluded.role`,
			inv.Workspace, inv.Email, string(inv.Role), millis(now))
		return err
	})
	if err != nil {
		return inv, false, db.errorf("accept invitation: %w", err)
	}
	return inv, added, nil
}

// useLink marks the link of tokenHash in table used at now, in its column
// used, unless it was already: then the error wraps hub.ErrNotFound. Of
// two transactions using one link at once, one wins.
func useLink(ctx context.Context, tx *sql.Tx, table, used, tokenHash string, now time.Time) error {
	// table and used are this package's constants, never input.
	res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET `+used+` = $1 WHERE token_hash = $2 AND `+used+` IS NULL`, millis(now), tokenHash)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(err, hub.ErrNotFound)
	}
	return nil
}
