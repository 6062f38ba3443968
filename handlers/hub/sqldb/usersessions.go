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

// CreateUserSession records a console session of s.Email.
func (db *DB) CreateUserSession(ctx context.Context, s accounts.Session) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	_, err = w.ExecContext(ctx, `INSERT INTO user_sessions (id, email, created_at, last_seen_at, client_addr, user_agent) VALUES ($1, $2, $3, $4, $5, $6)`,
		s.ID, s.Email, millis(s.CreatedAt), millis(s.LastSeenAt), text(s.Client), text(s.UserAgent))
	if err != nil {
		return db.errorf("create session of %s: %w", s.Email, err)
	}
	return nil
}

// sessionSeenStep is how stale a session's last-seen time may be before
// TouchUserSession writes it.
const sessionSeenStep = time.Minute

// TouchUserSession reports that the session id of email is still open,
// recording that it was seen at now (to within a minute). The error wraps
// hub.ErrNotFound when it was ended.
func (db *DB) TouchUserSession(ctx context.Context, id, email string, now time.Time) error {
	var seen int64
	err := db.r.QueryRowContext(ctx, `SELECT last_seen_at FROM user_sessions WHERE id = $1 AND email = $2`, id, email).Scan(&seen)
	if errors.Is(err, sql.ErrNoRows) {
		return db.errorf("session: %w", hub.ErrNotFound)
	}
	if err != nil {
		return db.errorf("session: %w", err)
	}
	if now.Sub(fromMillis(seen)) < sessionSeenStep {
		return nil
	}
	w, err := db.writer()
	if err != nil {
		return err
	}
	if _, err := w.ExecContext(ctx, `UPDATE user_sessions SET last_seen_at = $1 WHERE id = $2`, millis(now), id); err != nil {
		return db.errorf("session: %w", err)
	}
	return nil
}

// UserSessions returns the open sessions of email, the newest first.
func (db *DB) UserSessions(ctx context.Context, email string) ([]accounts.Session, error) {
	out, err := queryAll(ctx, db.r, func(row scanner) (accounts.Session, error) {
		var s accounts.Session
		var created, seen int64
		if err := row.Scan(&s.ID, &s.Email, &created, &seen, &s.Client, &s.UserAgent); err != nil {
			return s, err
		}
		s.CreatedAt, s.LastSeenAt = fromMillis(created), fromMillis(seen)
		return s, nil
	}, `SELECT id, email, created_at, last_seen_at, client_addr, user_agent FROM user_sessions
		WHERE email = $1 ORDER BY created_at DESC, id`, email)
	if err != nil {
		return nil, db.errorf("sessions of %s: %w", email, err)
	}
	return out, nil
}

// EndUserSessions ends the sessions of email with the ids, or with no ids
// every session of email but keep's. It returns how many it ended.
func (db *DB) EndUserSessions(ctx context.Context, email, keep string, ids ...string) (int, error) {
	n := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = endSessions(ctx, tx, email, keep, ids...)
		return err
	})
	if err != nil {
		return 0, db.errorf("end sessions of %s: %w", email, err)
	}
	return n, nil
}

func endSessions(ctx context.Context, tx *sql.Tx, email, keep string, ids ...string) (int, error) {
	var res sql.Result
	var err error
	if len(ids) == 0 {
		res, err = tx.ExecContext(ctx, `DELETE FROM user_sessions WHERE email = $1 AND id <> $2`, email, keep)
	} else {
		inIDs, args := in(ids, []any{email})
		res, err = tx.ExecContext(ctx, `DELETE FROM user_sessions WHERE email = $1 AND id `+inIDs, args...)
	}
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// SetPassword gives the user of email the password hash at now, ends
// every session of theirs but keep's, and retires every pending reset link
// of theirs: one asked for before the change must not undo it.
func (db *DB) SetPassword(ctx context.Context, email, passwordHash, keep string, now time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE email = $2`, passwordHash, email)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, hub.ErrNotFound)
		}
		if _, err = endSessions(ctx, tx, email, keep); err != nil {
			return err
		}
		return retireResets(ctx, tx, email, now)
	})
	if err != nil {
		return db.errorf("set the password of %s: %w", email, err)
	}
	return nil
}

// RetirePasswordResets retires, as used at now, every pending reset link
// of the user of email: a sign-in by single sign-on, like a new password,
// leaves none of them working. It returns how many it retired.
func (db *DB) RetirePasswordResets(ctx context.Context, email string, now time.Time) (int, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	res, err := w.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE email = $2 AND used_at IS NULL`, millis(now), email)
	if err != nil {
		return 0, db.errorf("retire the reset links of %s: %w", email, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, db.errorf("retire the reset links of %s: %w", email, err)
	}
	return int(n), nil
}

// retireResets marks every pending reset link of email used at now.
func retireResets(ctx context.Context, tx *sql.Tx, email string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE password_resets SET used_at = $1 WHERE email = $2 AND used_at IS NULL`, millis(now), email)
	return err
}

// ProveUser marks the address of the user of email proved at now, as the
// operator or a single sign-on provider vouches for it. When it was not
// proved, whoever set the account's password never showed they own the
// address: the password becomes passwordHash (empty: none, until one is
// set by a reset link or the operator), every session ends and every
// pending reset link is retired, so that the account is the owner's alone
// from then on. A passwordHash given replaces the password of a proved
// user too, with the same ends. It reports whether the address was
// unproved; the error wraps hub.ErrNotFound when no user has it.
func (db *DB) ProveUser(ctx context.Context, email, passwordHash string, now time.Time) (bool, error) {
	unproved := false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if unproved, err = lockUnproved(ctx, tx, email); err != nil {
			return err
		}
		if !unproved && passwordHash == "" {
			return nil
		}
		return takeOver(ctx, tx, email, passwordHash, now)
	})
	if err != nil {
		return false, db.errorf("prove the address of %s: %w", email, err)
	}
	return unproved, nil
}

// lockUnproved locks the row of the user of email until tx ends, and
// reports whether their address is unproved. The error wraps
// hub.ErrNotFound when no user has it.
func lockUnproved(ctx context.Context, tx *sql.Tx, email string) (bool, error) {
	// A write locks the row on PostgreSQL: a proof and an invitation's
	// acceptance at once are one after the other.
	res, err := tx.ExecContext(ctx, `UPDATE users SET email = email WHERE email = $1`, email)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, errors.Join(err, fmt.Errorf("no user %s: %w", email, hub.ErrNotFound))
	}
	var proved sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT proved_at FROM users WHERE email = $1`, email).Scan(&proved); err != nil {
		return false, err
	}
	return !proved.Valid, nil
}

// takeOver gives the account of email to whoever proved the address at
// now: its password becomes passwordHash, every session of it ends, every
// pending reset link of it is retired, and the address is proved.
func takeOver(ctx context.Context, tx *sql.Tx, email, passwordHash string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1, proved_at = COALESCE(proved_at, $2) WHERE email = $3`,
		passwordHash, millis(now), email); err != nil {
		return err
	}
	if _, err := endSessions(ctx, tx, email, ""); err != nil {
		return err
	}
	return retireResets(ctx, tx, email, now)
}

// CreatePasswordReset stores a password reset of the user of email under
// the hash of its link's token. The error wraps hub.ErrNotFound when no
// user has the address.
func (db *DB) CreatePasswordReset(ctx context.Context, tokenHash, email string, now, expires time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, email); err != nil {
			return err
		}
		return resetLinks.create(ctx, tx, tokenHash, email, now, expires)
	})
	if err != nil {
		return db.errorf("create a password reset: %w", err)
	}
	return nil
}

// PasswordReset returns the address of the user whose reset link has the
// token hash, when it can still be used at now; else the error wraps
// hub.ErrNotFound.
func (db *DB) PasswordReset(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	return resetLinks.email(ctx, db, tokenHash, now)
}

// ResetPassword uses the reset link whose token has the hash, at now: the
// user takes the password hash, every session of theirs ends, every other
// pending reset link of theirs is retired, and their address, which the
// link was mailed to, is proved. It returns their address; the error wraps
// hub.ErrNotFound when the link cannot be used (see PasswordReset): it
// works once.
func (db *DB) ResetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time) (string, error) {
	var email string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if email, err = resetLinks.openAndUse(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		return takeOver(ctx, tx, email, passwordHash, now)
	})
	if err != nil {
		return "", db.errorf("reset a password: %w", err)
	}
	return email, nil
}
