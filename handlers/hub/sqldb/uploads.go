package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

const uploadColumns = "key, site, form, filename, mime, size, created_at, expires_at, uploaded_at, submission_id, parts_id"

// CreateUpload records an upload the hub is signing a URL for. A key that
// exists already is an error.
func (db *DB) CreateUpload(ctx context.Context, u hub.Upload) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if u.Key == "" {
		return db.errorf("create upload: empty key")
	}
	_, err = w.ExecContext(ctx,
		`INSERT INTO uploads (`+uploadColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		u.Key, u.Site, u.Slug, text(u.Filename), u.MIME, u.Size,
		millis(u.CreatedAt), millis(u.ExpiresAt), nullMillis(u.UploadedAt), nullString(u.SubmissionID), u.PartsID)
	if err != nil {
		return db.full(db.errorf("create upload %q: %w", u.Key, err))
	}
	return nil
}

// Upload returns the upload with the given key, or an error wrapping
// hub.ErrNotFound.
func (db *DB) Upload(ctx context.Context, key string) (hub.Upload, error) {
	u, err := db.lookUpload(ctx, key)
	if err != nil {
		return hub.Upload{}, db.errorf("upload %q: %w", key, err)
	}
	return u, nil
}

// lookUpload is Upload with errors that do not name the key.
func (db *DB) lookUpload(ctx context.Context, key string) (hub.Upload, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+uploadColumns+` FROM uploads WHERE key = $1`, key)
	u, err := scanUpload(row)
	if errors.Is(err, sql.ErrNoRows) {
		return hub.Upload{}, hub.ErrNotFound
	}
	return u, err
}

// MarkUploaded records that the body of the upload with the given key was
// stored at the given time. A missing upload is an error wrapping
// hub.ErrNotFound; one already marked uploaded or already claimed is an
// error wrapping hub.ErrUploadClaim, as the upload no longer waits for a
// body.
func (db *DB) MarkUploaded(ctx context.Context, key string, at time.Time) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if at.IsZero() {
		// Zero is stored as NULL and means "not uploaded".
		return db.errorf("mark upload %q uploaded: zero time", key)
	}
	res, err := w.ExecContext(ctx,
		`UPDATE uploads SET uploaded_at = $1 WHERE key = $2 AND uploaded_at IS NULL AND submission_id IS NULL`,
		millis(at), key)
	if err != nil {
		return db.errorf("mark upload %q uploaded: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return db.errorf("mark upload %q uploaded: %w", key, err)
	} else if n == 1 {
		return nil
	}
	// Nothing changed: look again only to say why.
	u, err := db.lookUpload(ctx, key)
	switch {
	case err != nil:
		return db.errorf("mark upload %q uploaded: %w", key, err)
	case u.SubmissionID != "":
		return db.errorf("mark upload %q uploaded: already claimed by submission %s: %w", key, u.SubmissionID, hub.ErrUploadClaim)
	default:
		return db.errorf("mark upload %q uploaded: already uploaded at %s: %w", key, u.UploadedAt.Format(time.RFC3339Nano), hub.ErrUploadClaim)
	}
}

// StaleUploads returns at most limit uploads that no submission claimed,
// no draft holds and that were created before the given time, oldest
// first.
func (db *DB) StaleUploads(ctx context.Context, before time.Time, limit int) ([]hub.Upload, error) {
	if limit <= 0 {
		return nil, nil
	}
	out, err := queryAll(ctx, db.r, scanUpload,
		`SELECT `+uploadColumns+` FROM uploads WHERE submission_id IS NULL AND draft_id IS NULL AND created_at < $1 ORDER BY created_at, key LIMIT $2`,
		millis(before), limit)
	if err != nil {
		return nil, db.errorf("stale uploads: %w", err)
	}
	return out, nil
}

// DeleteUpload deletes the upload with the given key unless a submission
// claimed it or a draft holds it meanwhile, which is an error wrapping
// hub.ErrUploadClaim. A missing upload is an error wrapping
// hub.ErrNotFound.
func (db *DB) DeleteUpload(ctx context.Context, key string) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `DELETE FROM uploads WHERE key = $1 AND submission_id IS NULL AND draft_id IS NULL`, key)
	if err != nil {
		return db.errorf("delete upload %q: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return db.errorf("delete upload %q: %w", key, err)
	} else if n == 1 {
		return nil
	}
	var claimedBy, heldBy sql.NullString
	err = db.r.QueryRowContext(ctx, `SELECT submission_id, draft_id FROM uploads WHERE key = $1`, key).Scan(&claimedBy, &heldBy)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return db.errorf("delete upload %q: %w", key, hub.ErrNotFound)
	case err != nil:
		return db.errorf("delete upload %q: %w", key, err)
	case claimedBy.Valid:
		return db.errorf("delete upload %q: claimed by submission %s: %w", key, claimedBy.String, hub.ErrUploadClaim)
	case heldBy.Valid:
		return db.errorf("delete upload %q: held by draft %s: %w", key, heldBy.String, hub.ErrUploadClaim)
	}
	return db.errorf("delete upload %q: changed meanwhile: %w", key, hub.ErrUploadClaim)
}

// scanUpload reads the columns uploadColumns names.
func scanUpload(s scanner) (hub.Upload, error) {
	var (
		u                hub.Upload
		created, expires int64
		uploaded         sql.NullInt64
		submission       sql.NullString
	)
	err := s.Scan(&u.Key, &u.Site, &u.Slug, &u.Filename, &u.MIME, &u.Size, &created, &expires, &uploaded, &submission, &u.PartsID)
	if err != nil {
		return hub.Upload{}, err
	}
	u.CreatedAt = fromMillis(created)
	u.ExpiresAt = fromMillis(expires)
	if uploaded.Valid {
		u.UploadedAt = fromMillis(uploaded.Int64)
	}
	u.SubmissionID = submission.String
	return u, nil
}
