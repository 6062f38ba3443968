package sqldb

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"sync/atomic"
	"time"
)

// Sessions is the console's session store, a github.com/alexedwards/scs/v2
// CtxStore, in the hub's database, so that every hub sharing the database
// accepts a session any of them made. The store gets the token as the
// session manager passes it: with scs's HashTokenInStore, a hash of the
// cookie's value, so that the table holds nothing a browser could present.
type Sessions struct {
	db *DB
	// nextPrune is when Commit next deletes expired sessions, in Unix
	// milliseconds.
	nextPrune atomic.Int64
	// now returns the time; tests replace it.
	now func() time.Time
}

// Sessions returns the DB's session store.
func (db *DB) Sessions() *Sessions { return &Sessions{db: db, now: time.Now} }

// FindCtx returns the data of the session token, and whether it exists and
// has not expired.
func (s *Sessions) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var data string
	err := s.db.r.QueryRowContext(ctx, `SELECT data FROM sessions WHERE token_hash = $1 AND expires_at > $2`,
		text(token), millis(s.now())).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.db.errorf("session: %w", err)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, false, nil // a damaged row is no session
	}
	return b, true, nil
}

// CommitCtx stores the data of the session token until expiry, replacing
// what the token had.
func (s *Sessions) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	w, err := s.db.writer()
	if err != nil {
		return err
	}
	_, err = w.ExecContext(ctx,
		`INSERT INTO sessions (token_hash, data, expires_at) VALUES ($1, $2, $3)
		ON CONFLICT (token_hash) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at`,
		text(token), base64.StdEncoding.EncodeToString(b), millis(expiry))
	if err != nil {
		return s.db.errorf("commit session: %w", err)
	}
	s.prune(ctx, w)
	return nil
}

// DeleteCtx deletes the session token; a missing one is no error.
func (s *Sessions) DeleteCtx(ctx context.Context, token string) error {
	w, err := s.db.writer()
	if err != nil {
		return err
	}
	if _, err := w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, text(token)); err != nil {
		return s.db.errorf("delete session: %w", err)
	}
	return nil
}

// Find is FindCtx without a context.
func (s *Sessions) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

// Commit is CommitCtx without a context.
func (s *Sessions) Commit(token string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, b, expiry)
}

// Delete is DeleteCtx without a context.
func (s *Sessions) Delete(token string) error { return s.DeleteCtx(context.Background(), token) }

// prune deletes expired sessions, at most once every pruneEvery per store.
// An error is ignored, as with the rate limits: the rows are garbage that
// Find already ignores, and the next prune tries again.
func (s *Sessions) prune(ctx context.Context, w *sql.DB) {
	nowMS := millis(s.now())
	next := s.nextPrune.Load()
	if nowMS < next || !s.nextPrune.CompareAndSwap(next, nowMS+pruneEvery.Milliseconds()) {
		return
	}
	_, _ = w.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, nowMS)
}

// SetClock makes the store read the time from now, for tests.
func (s *Sessions) SetClock(now func() time.Time) { s.now = now }
