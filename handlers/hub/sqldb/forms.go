package sqldb

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
)

// SaveFormVersion stores body, a form file that the caller validated, as
// the newest version of the form of site and slug, creating the form on
// its first save, and returns the version's number. The live version does
// not change: the new version is not live until PublishFormVersion.
func (db *DB) SaveFormVersion(ctx context.Context, site, slug string, body []byte, by string, now time.Time) (int64, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	defer tx.Rollback()
	// The upsert takes the form's row lock on PostgreSQL (SQLite has one
	// writer), so concurrent saves get distinct numbers.
	var n int64
	err = tx.QueryRowContext(ctx, `
		INSERT INTO forms (site, slug, last_version, created_at, updated_at) VALUES ($1, $2, 1, $3, $3)
		ON CONFLICT (site, slug) DO UPDATE SET last_version = forms.last_version + 1, updated_at = excluded.updated_at
		RETURNING last_version`, site, slug, millis(now)).Scan(&n)
	if err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO form_versions (site, slug, version, body, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
		site, slug, n, text(string(body)), millis(now), text(by)); err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	return n, nil
}

// PublishFormVersion makes version the live version of the form, which
// may be an earlier one than the live version (a rollback). The error
// wraps hub.ErrNotFound when the form has no such version.
func (db *DB) PublishFormVersion(ctx context.Context, site, slug string, version int64, now time.Time) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `
		UPDATE forms SET live_version = $3, published_at = $4, updated_at = $4
		WHERE site = $1 AND slug = $2
		  AND EXISTS (SELECT 1 FROM form_versions v WHERE v.site = $1 AND v.slug = $2 AND v.version = $3)`,
		site, slug, version, millis(now))
	if err != nil {
		return db.errorf("publish form %s/%s version %d: %w", site, slug, version, err)
	}
	return db.affected(res, "publish form "+site+"/"+slug, hub.ErrNotFound)
}

// LiveVersion returns the number of the form's published version, or an
// error wrapping hub.ErrNotFound when there is no such form or it has
// none published.
func (db *DB) LiveVersion(ctx context.Context, site, slug string) (int64, error) {
	var live sql.NullInt64
	err := db.r.QueryRowContext(ctx, `SELECT live_version FROM forms WHERE site = $1 AND slug = $2`, site, slug).Scan(&live)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !live.Valid {
		return 0, db.errorf("form %s/%s: %w", site, slug, hub.ErrNotFound)
	}
	if err != nil {
		return 0, db.errorf("form %s/%s: %w", site, slug, err)
	}
	return live.Int64, nil
}

// FormVersion returns one version of a form, with its body, or an error
// wrapping hub.ErrNotFound.
func (db *DB) FormVersion(ctx context.Context, site, slug string, version int64) (formsource.Version, error) {
	v := formsource.Version{Site: site, Slug: slug, Version: version}
	var body string
	var created int64
	err := db.r.QueryRowContext(ctx,
		`SELECT body, created_at, created_by FROM form_versions WHERE site = $1 AND slug = $2 AND version = $3`,
		site, slug, version).Scan(&body, &created, &v.CreatedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return formsource.Version{}, db.errorf("form %s/%s version %d: %w", site, slug, version, hub.ErrNotFound)
	}
	if err != nil {
		return formsource.Version{}, db.errorf("form %s/%s version %d: %w", site, slug, version, err)
	}
	v.Body, v.CreatedAt = []byte(body), fromMillis(created)
	return v, nil
}

// FormVersions returns the versions of a form, newest first, without
// their bodies, or an error wrapping hub.ErrNotFound when there is no
// such form.
func (db *DB) FormVersions(ctx context.Context, site, slug string) ([]formsource.Version, error) {
	if _, err := db.FormRecord(ctx, site, slug); err != nil {
		return nil, err
	}
	out, err := queryAll(ctx, db.r, func(row scanner) (formsource.Version, error) {
		v := formsource.Version{Site: site, Slug: slug}
		var created int64
		if err := row.Scan(&v.Version, &created, &v.CreatedBy); err != nil {
			return v, err
		}
		v.CreatedAt = fromMillis(created)
		return v, nil
	},
		`SELECT version, created_at, created_by FROM form_versions WHERE site = $1 AND slug = $2 ORDER BY version DESC`, site, slug)
	if err != nil {
		return nil, db.errorf("form %s/%s versions: %w", site, slug, err)
	}
	return out, nil
}

const formColumns = `site, slug, last_version, live_version, created_at, updated_at, published_at`

func scanForm(row scanner) (formsource.Record, error) {
	var r formsource.Record
	var live, published sql.NullInt64
	var created, updated int64
	if err := row.Scan(&r.Site, &r.Slug, &r.LastVersion, &live, &created, &updated, &published); err != nil {
		return formsource.Record{}, err
	}
	r.LiveVersion = live.Int64
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(updated)
	if published.Valid {
		r.PublishedAt = fromMillis(published.Int64)
	}
	return r, nil
}

// FormRecord returns the form of site and slug, or an error wrapping
// hub.ErrNotFound.
func (db *DB) FormRecord(ctx context.Context, site, slug string) (formsource.Record, error) {
	r, err := scanForm(db.r.QueryRowContext(ctx, `SELECT `+formColumns+` FROM forms WHERE site = $1 AND slug = $2`, site, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return formsource.Record{}, db.errorf("form %s/%s: %w", site, slug, hub.ErrNotFound)
	}
	if err != nil {
		return formsource.Record{}, db.errorf("form %s/%s: %w", site, slug, err)
	}
	return r, nil
}

// FormRecords returns every form kept in the database, by site then slug.
func (db *DB) FormRecords(ctx context.Context) ([]formsource.Record, error) {
	out, err := queryAll(ctx, db.r, scanForm, `SELECT `+formColumns+` FROM forms`)
	if err != nil {
		return nil, db.errorf("forms: %w", err)
	}
	// Sorted here, byte-wise: PostgreSQL's ORDER BY follows the database's
	// collation, which may put "a-b" and "A" elsewhere than SQLite does.
	slices.SortFunc(out, func(a, b formsource.Record) int {
		return cmp.Or(strings.Compare(a.Site, b.Site), strings.Compare(a.Slug, b.Slug))
	})
	return out, nil
}
