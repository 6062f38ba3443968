package sqldb

import (
	"context"
	"database/sql"
	"errors"
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
		_, err := tx.ExecContext(ctx, `INSERT INTO invitations (token_hash, workspace, email, role, invited_by, created_at, expires_at, mailed)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			tokenHash, inv.Workspace, text(inv.Email), string(inv.Role), text(inv.InvitedBy), millis(inv.CreatedAt), millis(inv.ExpiresAt), inv.Mailed)
		return err
	})
	if err != nil {
		return db.errorf("create invitation of %s to %s: %w", inv.Email, inv.Workspace, err)
	}
	return nil
}

// InvitationMailed records that the link of the invitation whose token
// has the hash went out by e-mail: it then proves the address to whoever
// opens it. The error wraps hub.ErrNotFound when there is no such
// invitation.
func (db *DB) InvitationMailed(ctx context.Context, tokenHash string) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `UPDATE invitations SET mailed = TRUE WHERE token_hash = $1`, tokenHash)
	if err != nil {
		return db.errorf("record an invitation mailed: %w", err)
	}
	return db.affected(res, "record an invitation mailed", hub.ErrNotFound)
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
	err := invitationLinks.open(ctx, q, tokenHash, now, "workspace, email, role, invited_by, created_at, expires_at, mailed",
		&inv.Workspace, &inv.Email, &inv.Role, &inv.InvitedBy, &created, &expires, &inv.Mailed)
	inv.CreatedAt, inv.ExpiresAt = fromMillis(created), fromMillis(expires)
	return inv, err
}

// AcceptInvitation accepts the invitation whose token has the hash, at
// now, in one transaction, for a visitor signed in as the address as (empty
// when they are signed in as nobody), and makes the invitee a member of
// the workspace with the invitation's role, or gives a member that role:
//
//   - When no user has the address, it adds one with passwordHash (which
//     must then be set), whose address is proved when the link was mailed.
//   - When a user whose address is proved has it, that user must be the
//     one signed in (as); else the error wraps accounts.ErrNotInvitee.
//   - When a user whose address nobody proved has it, a link that was only
//     shown proves nothing: the error wraps accounts.ErrUnproved. A mailed
//     link proves it: the account takes passwordHash (which must then be
//     set) in place of the password whoever made it chose, every session
//     of it ends and every pending reset link of it is retired.
//
// It returns the invitation and whether the visitor set the account's
// password, and so is to be signed in as it. The error wraps
// hub.ErrNotFound when the invitation cannot be accepted (see Invitation):
// a link works once; and accounts.ErrLastAdmin when it would take the
// workspace's last admin their role. Refused, it changes nothing.
func (db *DB) AcceptInvitation(ctx context.Context, tokenHash, passwordHash, as string, now time.Time) (accounts.Invitation, bool, error) {
	var inv accounts.Invitation
	setPassword := false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if inv, err = openInvitation(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		if err := invitationLinks.use(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		unproved, err := lockUnproved(ctx, tx, inv.Email)
		switch {
		case errors.Is(err, hub.ErrNotFound):
			if passwordHash == "" {
				return errors.New("a new user needs a password")
			}
			proved := sql.NullInt64{Int64: millis(now), Valid: inv.Mailed}
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (email, password_hash, created_at, proved_at) VALUES ($1, $2, $3, $4)`,
				inv.Email, passwordHash, millis(now), proved); err != nil {
				return err
			}
			setPassword = true
		case err != nil:
			return err
		case unproved && !inv.Mailed:
			return accounts.ErrUnproved
		case unproved:
			if passwordHash == "" {
				return errors.New("an account whose address is proved by this link needs a new password")
			}
			if err := takeOver(ctx, tx, inv.Email, passwordHash, now); err != nil {
				return err
			}
			setPassword = true
		case as != inv.Email:
			return accounts.ErrNotInvitee
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
	return inv, setPassword, nil
}
