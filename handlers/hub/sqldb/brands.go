package sqldb

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hubform/hubform/handlers/hub"
)

// Brand returns the brand of the workspace, a theme as JSON, nil for
// none, or an error wrapping hub.ErrNotFound when there is no workspace
// of that name.
func (db *DB) Brand(ctx context.Context, workspace string) ([]byte, error) {
	var brand sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT brand FROM workspaces WHERE name = $1`, workspace).Scan(&brand)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, db.errorf("brand of %s: %w", workspace, hub.ErrNotFound)
	}
	if err != nil {
		return nil, db.errorf("brand of %s: %w", workspace, err)
	}
	if !brand.Valid {
		return nil, nil
	}
	return []byte(brand.String), nil
}

// SetBrand sets the brand of the workspace, nil for none; the error wraps
// hub.ErrNotFound when there is no workspace of that name.
func (db *DB) SetBrand(ctx context.Context, workspace string, brand []byte) error {
	var value any
	if brand != nil {
		value = string(brand)
	}
	res, err := db.w.ExecContext(ctx, `UPDATE workspaces SET brand = $1 WHERE name = $2`, value, workspace)
	if err == nil {
		var n int64
		if n, err = res.RowsAffected(); err == nil && n == 0 {
			err = hub.ErrNotFound
		}
	}
	if err != nil {
		return db.errorf("set brand of %s: %w", workspace, err)
	}
	return nil
}

// SiteBrand returns the brand of the workspace that owns site, nil when
// it has none or no workspace owns the site.
func (db *DB) SiteBrand(ctx context.Context, site string) ([]byte, error) {
	var brand sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT w.brand FROM sites s JOIN workspaces w ON w.name = s.workspace WHERE s.site = $1`, site).Scan(&brand)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !brand.Valid {
		return nil, nil
	}
	if err != nil {
		return nil, db.errorf("brand of site %s: %w", site, err)
	}
	return []byte(brand.String), nil
}
