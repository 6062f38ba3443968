package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// digestColumns are the columns of digests that scanDigest reads.
const digestColumns = `workspace, email, site, slug, time_zone, hour, next_at`

func scanDigest(s scanner) (hub.Digest, error) {
	var d hub.Digest
	var next int64
	err := s.Scan(&d.Workspace, &d.Email, &d.Site, &d.Slug, &d.TimeZone, &d.Hour, &next)
	d.NextAt = fromMillis(next)
	return d, err
}

// Digests returns the digests the member email asked of workspace, the
// workspace's own first, then by form.
func (db *DB) Digests(ctx context.Context, workspace, email string) ([]hub.Digest, error) {
	out, err := queryAll(ctx, db.r, scanDigest, `SELECT `+digestColumns+` FROM digests
		WHERE workspace = $1 AND email = $2 ORDER BY site, slug`, workspace, email)
	if err != nil {
		return nil, db.errorf("digests of %s in %s: %w", email, workspace, err)
	}
	return out, nil
}

// SetDigests replaces the digests the member email asked of workspace by
// ds, in one transaction.
func (db *DB) SetDigests(ctx context.Context, workspace, email string, ds []hub.Digest) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM digests WHERE workspace = $1 AND email = $2`, workspace, email); err != nil {
			return err
		}
		for _, d := range ds {
			if _, err := tx.ExecContext(ctx, `INSERT INTO digests (`+digestColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				workspace, email, d.Site, d.Slug, d.TimeZone, d.Hour, millis(d.NextAt)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return db.errorf("set digests of %s in %s: %w", email, workspace, err)
	}
	return nil
}

// DueDigests returns up to limit digests due at now, the longest due
// first.
func (db *DB) DueDigests(ctx context.Context, now time.Time, limit int) ([]hub.Digest, error) {
	out, err := queryAll(ctx, db.r, scanDigest, `SELECT `+digestColumns+` FROM digests
		WHERE next_at <= $1 ORDER BY next_at LIMIT $2`, millis(now), limit)
	if err != nil {
		return nil, db.errorf("due digests: %w", err)
	}
	return out, nil
}

// AdvanceDigest moves the digest d on to next, unless another hub moved it
// since d was read; it reports whether it did.
func (db *DB) AdvanceDigest(ctx context.Context, d hub.Digest, next time.Time) (bool, error) {
	res, err := db.w.ExecContext(ctx, `UPDATE digests SET next_at = $1
		WHERE workspace = $2 AND email = $3 AND site = $4 AND slug = $5 AND next_at = $6`,
		millis(next), d.Workspace, d.Email, d.Site, d.Slug, millis(d.NextAt))
	if err != nil {
		return false, db.errorf("advance digest of %s in %s: %w", d.Email, d.Workspace, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, db.errorf("advance digest of %s in %s: %w", d.Email, d.Workspace, err)
	}
	return n == 1, nil
}

// DeleteDigest deletes the digest d, as when its member left the
// workspace.
func (db *DB) DeleteDigest(ctx context.Context, d hub.Digest) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM digests WHERE workspace = $1 AND email = $2 AND site = $3 AND slug = $4`,
		d.Workspace, d.Email, d.Site, d.Slug); err != nil {
		return db.errorf("delete digest of %s in %s: %w", d.Email, d.Workspace, err)
	}
	return nil
}

// DigestDay returns what the forms of the digest d received from from to
// to, each form with submissions: their count, spam and deleted ones left
// out, and up to newest of them, newest first, in the order of sites and
// forms.
func (db *DB) DigestDay(ctx context.Context, d hub.Digest, from, to time.Time, newest int) ([]hub.FormDay, error) {
	query := `SELECT s.site, s.form, COUNT(*) FROM sites w JOIN submissions s ON s.site = w.site
		WHERE w.workspace = $1 AND s.created_at >= $2 AND s.created_at < $3 AND NOT s.spam AND s.deleted_at IS NULL`
	args := []any{d.Workspace, millis(from), millis(to)}
	if d.Site != "" {
		query += ` AND s.site = $4 AND s.form = $5`
		args = append(args, d.Site, d.Slug)
	}
	days, err := queryAll(ctx, db.r, func(s scanner) (hub.FormDay, error) {
		var f hub.FormDay
		err := s.Scan(&f.Site, &f.Slug, &f.Count)
		return f, err
	}, query+` GROUP BY s.site, s.form ORDER BY s.site, s.form`, args...)
	if err != nil {
		return nil, db.errorf("digest of %s in %s: %w", d.Email, d.Workspace, err)
	}
	for i := range days {
		f := &days[i]
		f.Newest, err = queryAll(ctx, db.r, func(s scanner) (hub.DigestSubmission, error) {
			var sub hub.DigestSubmission
			var created int64
			var payload string
			err := s.Scan(&sub.ID, &created, &payload)
			sub.CreatedAt, sub.Payload = fromMillis(created), json.RawMessage(payload)
			return sub, err
		}, `SELECT id, created_at, payload FROM submissions
			WHERE site = $1 AND form = $2 AND created_at >= $3 AND created_at < $4 AND NOT spam AND deleted_at IS NULL
			ORDER BY created_at DESC, id DESC LIMIT $5`, f.Site, f.Slug, millis(from), millis(to), newest)
		if err != nil {
			return nil, db.errorf("digest of %s in %s: %w", d.Email, d.Workspace, err)
		}
	}
	return days, nil
}

// DigestReader reports whether email may read the digest of workspace: a
// member of it, whose address was proved.
func (db *DB) DigestReader(ctx context.Context, workspace, email string) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM workspace_members m JOIN users u ON u.email = m.email
		WHERE m.workspace = $1 AND m.email = $2 AND u.proved_at IS NOT NULL`, workspace, email).Scan(&n)
	if err != nil {
		return false, db.errorf("digest reader %s of %s: %w", email, workspace, err)
	}
	return n > 0, nil
}
