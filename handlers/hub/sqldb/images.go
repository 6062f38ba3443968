package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/hubform/hubform/handlers/hub"
)

// AddImage records img unless its workspace has limit images already,
// when the error wraps hub.ErrQuota. Two added at once may both pass the
// last place: the limit bounds what a workspace keeps, not exactly.
func (db *DB) AddImage(ctx context.Context, img hub.Image, limit int) error {
	res, err := db.w.ExecContext(ctx, `INSERT INTO theme_images (key, workspace, content_type, size, created_at)
		SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM theme_images WHERE workspace = $2) < $6`,
		img.Key, img.Workspace, img.ContentType, img.Size, millis(img.CreatedAt), limit)
	if err == nil {
		var n int64
		if n, err = res.RowsAffected(); err == nil && n == 0 {
			err = fmt.Errorf("%d images kept already: %w", limit, hub.ErrQuota)
		}
	}
	if err != nil {
		return db.errorf("add image %s: %w", img.Key, err)
	}
	return nil
}

// DeleteImage forgets the image of key, if any.
func (db *DB) DeleteImage(ctx context.Context, key string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM theme_images WHERE key = $1`, key); err != nil {
		return db.errorf("delete image %s: %w", key, err)
	}
	return nil
}

// Image returns the image of key, or an error wrapping hub.ErrNotFound.
func (db *DB) Image(ctx context.Context, key string) (hub.Image, error) {
	img := hub.Image{Key: key}
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT workspace, content_type, size, created_at FROM theme_images WHERE key = $1`, key).
		Scan(&img.Workspace, &img.ContentType, &img.Size, &created)
	if errors.Is(err, sql.ErrNoRows) {
		err = hub.ErrNotFound
	}
	if err != nil {
		return img, db.errorf("image %s: %w", key, err)
	}
	img.CreatedAt = fromMillis(created)
	return img, nil
}
