package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"

	"github.com/hubform/hubform/handlers/hub"
)

// CreateUser stores u, whose address is proved when u.ProvedAt is set. When a user with u.Email exists, nothing is stored
// and the error wraps accounts.ErrExists.
func (db *DB) CreateUser(ctx context.Context, u accounts.User) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if u.Email == "" || u.PasswordHash == "" {
		return db.errorf("create user: email and password hash must be set")
	}
	res, err := w.ExecContext(ctx,
		`INSERT INTO users (email, password_hash, created_at, proved_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING`,
		text(u.Email), u.PasswordHash, millis(u.CreatedAt), nullMillis(u.ProvedAt))
	if err != nil {
		return db.errorf("create user %s: %w", u.Email, err)
	}
	return db.affected(res, "create user "+u.Email, accounts.ErrExists)
}

// User returns the user with the given e-mail address, or an error wrapping
// hub.ErrNotFound.
func (db *DB) User(ctx context.Context, email string) (accounts.User, error) {
	var u accounts.User
	var created int64
	var proved sql.NullInt64
	err := db.r.QueryRowContext(ctx, `SELECT email, password_hash, created_at, proved_at FROM users WHERE email = $1`, text(email)).
		Scan(&u.Email, &u.PasswordHash, &created, &proved)
	if errors.Is(err, sql.ErrNoRows) {
		return accounts.User{}, db.errorf("user %s: %w", email, hub.ErrNotFound)
	}
	if err != nil {
		return accounts.User{}, db.errorf("user %s: %w", email, err)
	}
	u.CreatedAt, u.ProvedAt = fromMillis(created), fromNullMillis(proved)
	return u, nil
}

// Users returns every user, by e-mail address, without password hashes.
func (db *DB) Users(ctx context.Context) ([]accounts.User, error) {
	users, err := queryAll(ctx, db.r, func(row scanner) (accounts.User, error) {
		var u accounts.User
		var created int64
		var proved sql.NullInt64
		if err := row.Scan(&u.Email, &created, &proved); err != nil {
			return u, err
		}
		u.CreatedAt, u.ProvedAt = fromMillis(created), fromNullMillis(proved)
		return u, nil
	}, `SELECT email, created_at, proved_at FROM users ORDER BY email`)
	if err != nil {
		return nil, db.errorf("users: %w", err)
	}
	return users, nil
}

// DeleteUser deletes the user with the given e-mail address, or returns an
// error wrapping hub.ErrNotFound. The user's sessions stay stored
// until they expire, but the console refuses a session whose user is gone.
func (db *DB) DeleteUser(ctx context.Context, email string) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `DELETE FROM users WHERE email = $1`, text(email))
	if err != nil {
		return db.errorf("delete user %s: %w", email, err)
	}
	return db.affected(res, "delete user "+email, hub.ErrNotFound)
}

// CreateToken stores t. When a token named t.Name exists, nothing is
// stored and the error wraps accounts.ErrExists.
func (db *DB) CreateToken(ctx context.Context, t accounts.Token) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if t.Name == "" || t.Hash == "" {
		return db.errorf("create token: name and hash must be set")
	}
	// A hub-wide token reads metrics and nothing else; a workspace's
	// token never does.
	if (t.Workspace == "") != (t.Scope == accounts.ScopeMetrics) {
		return db.errorf("create token %s: scope %q does not go with workspace %q", t.Name, t.Scope, t.Workspace)
	}
	if t.Workspace != "" {
		if _, err := db.Workspace(ctx, t.Workspace); err != nil {
			return err
		}
	}
	res, err := w.ExecContext(ctx,
		`INSERT INTO api_tokens (name, hash, created_at, last_used_at, workspace, scope)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING`,
		text(t.Name), t.Hash, millis(t.CreatedAt), nullMillis(t.LastUsedAt), nullString(text(t.Workspace)), string(t.Scope))
	if err != nil {
		return db.errorf("create token %s: %w", t.Name, err)
	}
	return db.affected(res, "create token "+t.Name, accounts.ErrExists)
}

// tokenUseStep is how stale a token's LastUsedAt may be before UseToken
// writes it: a token used in a loop costs a write a minute, not one a
// request.
const tokenUseStep = time.Minute

// UseToken returns the token whose hash is given, recording that it was
// used at now (to within tokenUseStep), or an error wrapping
// hub.ErrNotFound.
func (db *DB) UseToken(ctx context.Context, hash string, now time.Time) (accounts.Token, error) {
	t, err := scanToken(db.r.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE hash = $1`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return accounts.Token{}, db.errorf("token: %w", hub.ErrNotFound)
	}
	if err != nil {
		return accounts.Token{}, db.errorf("token: %w", err)
	}
	if t.LastUsedAt.IsZero() || now.Sub(t.LastUsedAt) >= tokenUseStep {
		w, err := db.writer()
		if err != nil {
			return accounts.Token{}, err
		}
		if _, err := w.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE hash = $2`, millis(now), hash); err != nil {
			return accounts.Token{}, db.errorf("token %s: %w", t.Name, err)
		}
		t.LastUsedAt = fromMillis(millis(now))
	}
	return t, nil
}

// Tokens returns the tokens of a workspace, or with workspace empty every
// token, by name.
func (db *DB) Tokens(ctx context.Context, workspace string) ([]accounts.Token, error) {
	query, args := `SELECT `+tokenColumns+` FROM api_tokens ORDER BY name`, []any{}
	if workspace != "" {
		query, args = `SELECT `+tokenColumns+` FROM api_tokens WHERE workspace = $1 ORDER BY name`, []any{workspace}
	}
	tokens, err := queryAll(ctx, db.r, scanToken, query, args...)
	if err != nil {
		return nil, db.errorf("tokens: %w", err)
	}
	return tokens, nil
}

const tokenColumns = "name, hash, created_at, last_used_at, COALESCE(workspace, ''), scope"

// scanToken scans the tokenColumns of a row.
func scanToken(row scanner) (accounts.Token, error) {
	var t accounts.Token
	var created int64
	var used sql.NullInt64
	if err := row.Scan(&t.Name, &t.Hash, &created, &used, &t.Workspace, &t.Scope); err != nil {
		return accounts.Token{}, err
	}
	t.CreatedAt = fromMillis(created)
	if used.Valid {
		t.LastUsedAt = fromMillis(used.Int64)
	}
	return t, nil
}

// RevokeToken deletes the token named name, or returns an error wrapping
// hub.ErrNotFound. It is refused from the next request on.
func (db *DB) RevokeToken(ctx context.Context, name string) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `DELETE FROM api_tokens WHERE name = $1`, text(name))
	if err != nil {
		return db.errorf("revoke token %s: %w", name, err)
	}
	return db.affected(res, "revoke token "+name, hub.ErrNotFound)
}

// affected returns nil when res changed a row, else an error wrapping
// none, which says why nothing was changed.
func (db *DB) affected(res sql.Result, what string, none error) error {
	n, err := res.RowsAffected()
	if err != nil {
		return db.errorf("%s: %w", what, err)
	}
	if n == 0 {
		return db.errorf("%s: %w", what, none)
	}
	return nil
}
