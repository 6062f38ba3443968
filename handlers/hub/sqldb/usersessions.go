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
	rows, err := db.r.QueryContext(ctx, `SELECT id, email, created_at, last_seen_at, client_addr, user_agent FROM user_sessions
		WHERE email = $1 ORDER BY created_at DESC, id`, email)
	if err != nil {
		return nil, db.errorf("sessions of %s: %w", email, err)
	}
	defer rows.Close()
	var out []accounts.Session
	for rows.Next() {
		var s accounts.Session
		var created, seen int64
		if err := rows.Scan(&s.ID, &s.Email, &created, &seen, &s.Client, &s.UserAgent); err != nil {
			return nil, db.errorf("sessions of %s: %w", email, err)
		}
		s.CreatedAt, s.LastSeenAt = fromMillis(created), fromMillis(seen)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
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

// SetPassword gives the user of email the password hash, and ends every
// session of theirs but keep's.
func (db *DB) SetPassword(ctx context.Context, email, passwordHash, keep string) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE email = $2`, passwordHash, email)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, hub.ErrNotFound)
		}
		_, err = endSessions(ctx, tx, email, keep)
		return err
	})
	if err != nil {
		return db.errorf("set the password of %s: %w", email, err)
	}
	return nil
}

// CreatePasswordReset stores a password reset of the user of email under
// the hash of its link's token. The error wraps hub.ErrNotFound when no
// user has the address.
func (db *DB) CreatePasswordReset(ctx context.Context, tokenHash, email string, now, expires time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, email); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			tokenHash, email, millis(now), millis(expires))
		return err
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
	email, err := openReset(ctx, db.r, tokenHash, now)
	if err != nil {
		return "", db.errorf("password reset: %w", err)
	}
	return email, nil
}

func openReset(ctx context.Context, q querier, tokenHash string, now time.Time) (string, error) {
	var email string
	err := q.QueryRowContext(ctx, `SELECT email FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
		tokenHash, millis(now)).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("no open reset: %w", hub.ErrNotFound)
	}
	return email, err
}

// ResetPassword uses the reset link whose token has the hash, at now: the
// user takes the password hash, and every session of theirs ends. It
// returns their address; the error wraps hub.ErrNotFound when the link
// cannot be used (see PasswordReset): it works once.
func (db *DB) ResetPassword(ctx context.Context, tokenHash, passwordHash string, now time.Time) (string, error) {
	var email string
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if email, err = openReset(ctx, tx, tokenHash, now); err != nil {
			return err
		}
		if err := useLink(ctx, tx, "password_resets", "used_at", tokenHash, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE email = $2`, passwordHash, email); err != nil {
			return err
		}
		_, err = endSessions(ctx, tx, email, "")
		return err
	})
	if err != nil {
		return "", db.errorf("reset a password: %w", err)
	}
	return email, nil
}
