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
// a new version of the form of site and slug, creating the form on its
// first save, and returns the version's number. The new version is the
// form's draft: it is not live until PublishFormVersion.
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
		INSERT INTO forms (site, slug, last_version, revision, created_at, updated_at) VALUES ($1, $2, 1, 1, $3, $3)
		ON CONFLICT (site, slug) DO UPDATE SET last_version = forms.last_version + 1, revision = forms.revision + 1, updated_at = excluded.updated_at
		RETURNING last_version`, site, slug, millis(now)).Scan(&n)
	if err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if err := insertVersion(ctx, tx, site, slug, n, body, by, now); err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	return n, nil
}

func insertVersion(ctx context.Context, tx *sql.Tx, site, slug string, n int64, body []byte, by string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO form_versions (site, slug, version, body, created_at, created_by, saved_at, saved_by)
		VALUES ($1, $2, $3, $4, $5, $6, $5, $6)`,
		site, slug, n, text(string(body)), millis(now), text(by))
	return err
}

// SaveFormDraft stores body, a form file that the caller validated, as the
// draft of the form of site and slug, if the form's revision is still
// revision: it overwrites the newest version while that was never
// published, else it starts a new version. It returns what was saved; an
// error wraps hub.ErrNotFound for a missing form, formsource.ErrChanged
// when the form was saved since revision.
func (db *DB) SaveFormDraft(ctx context.Context, site, slug string, body []byte, by string, now time.Time, revision int64) (formsource.Saved, error) {
	w, err := db.writer()
	if err != nil {
		return formsource.Saved{}, err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return formsource.Saved{}, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	defer tx.Rollback()
	// The update takes the form's row lock on PostgreSQL, and a save that
	// waited on it finds the revision changed: saves from the same page
	// cannot both pass.
	var s formsource.Saved
	var sealed int64
	err = tx.QueryRowContext(ctx, `
		UPDATE forms SET revision = revision + 1, updated_at = $4
		WHERE site = $1 AND slug = $2 AND revision = $3
		RETURNING last_version, sealed_version, revision`,
		site, slug, revision, millis(now)).Scan(&s.Version, &sealed, &s.Revision)
	if errors.Is(err, sql.ErrNoRows) {
		return formsource.Saved{}, db.staleOrMissing(ctx, tx, site, slug)
	}
	if err != nil {
		return formsource.Saved{}, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if s.Version > sealed {
		_, err = tx.ExecContext(ctx, `
			UPDATE form_versions SET body = $4, saved_at = $5, saved_by = $6
			WHERE site = $1 AND slug = $2 AND version = $3`,
			site, slug, s.Version, text(string(body)), millis(now), text(by))
	} else {
		s.Version, s.New = s.Version+1, true
		if _, err = tx.ExecContext(ctx, `UPDATE forms SET last_version = $3 WHERE site = $1 AND slug = $2`, site, slug, s.Version); err == nil {
			err = insertVersion(ctx, tx, site, slug, s.Version, body, by, now)
		}
	}
	if err != nil {
		return formsource.Saved{}, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	if err := tx.Commit(); err != nil {
		return formsource.Saved{}, db.errorf("save form %s/%s: %w", site, slug, err)
	}
	return s, nil
}

// staleOrMissing is the error of a change of a form that matched no row:
// the form is missing, or its revision is not the one named.
func (db *DB) staleOrMissing(ctx context.Context, tx *sql.Tx, site, slug string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM forms WHERE site = $1 AND slug = $2`, site, slug).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return db.errorf("form %s/%s: %w", site, slug, hub.ErrNotFound)
	case err != nil:
		return db.errorf("form %s/%s: %w", site, slug, err)
	}
	return db.errorf("form %s/%s: %w", site, slug, formsource.ErrChanged)
}

// PublishFormVersion makes version the live version of the form, which
// may be an earlier one than the live version (a rollback). Publishing
// seals the version and those before it: a later save starts a new
// draft. The error wraps hub.ErrNotFound when the form has no such
// version.
func (db *DB) PublishFormVersion(ctx context.Context, site, slug string, version int64, now time.Time) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	res, err := w.ExecContext(ctx, `
		UPDATE forms SET live_version = $3, published_at = $4, updated_at = $4,
			sealed_version = CASE WHEN sealed_version > $3 THEN sealed_version ELSE $3 END
		WHERE site = $1 AND slug = $2
		  AND EXISTS (SELECT 1 FROM form_versions v WHERE v.site = $1 AND v.slug = $2 AND v.version = $3)`,
		site, slug, version, millis(now))
	if err != nil {
		return db.errorf("publish form %s/%s version %d: %w", site, slug, version, err)
	}
	return db.affected(res, "publish form "+site+"/"+slug, hub.ErrNotFound)
}

// PublishFormDraft makes the form's newest version live, and seals it, if
// the form's revision is still revision, and returns the version's
// number. An error wraps hub.ErrNotFound for a missing form,
// formsource.ErrChanged when the form was saved since revision.
func (db *DB) PublishFormDraft(ctx context.Context, site, slug string, revision int64, now time.Time) (int64, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, db.errorf("publish form %s/%s: %w", site, slug, err)
	}
	defer tx.Rollback()
	var n int64
	err = tx.QueryRowContext(ctx, `
		UPDATE forms SET live_version = last_version, sealed_version = last_version, published_at = $4, updated_at = $4
		WHERE site = $1 AND slug = $2 AND revision = $3
		RETURNING last_version`, site, slug, revision, millis(now)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, db.staleOrMissing(ctx, tx, site, slug)
	}
	if err != nil {
		return 0, db.errorf("publish form %s/%s: %w", site, slug, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, db.errorf("publish form %s/%s: %w", site, slug, err)
	}
	return n, nil
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
	var created, saved int64
	err := db.r.QueryRowContext(ctx,
		`SELECT body, created_at, created_by, saved_at, saved_by FROM form_versions WHERE site = $1 AND slug = $2 AND version = $3`,
		site, slug, version).Scan(&body, &created, &v.CreatedBy, &saved, &v.SavedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return formsource.Version{}, db.errorf("form %s/%s version %d: %w", site, slug, version, hub.ErrNotFound)
	}
	if err != nil {
		return formsource.Version{}, db.errorf("form %s/%s version %d: %w", site, slug, version, err)
	}
	v.Body, v.CreatedAt, v.SavedAt = []byte(body), fromMillis(created), fromMillis(saved)
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
		var created, saved int64
		if err := row.Scan(&v.Version, &created, &v.CreatedBy, &saved, &v.SavedBy); err != nil {
			return v, err
		}
		v.CreatedAt, v.SavedAt = fromMillis(created), fromMillis(saved)
		return v, nil
	},
		`SELECT version, created_at, created_by, saved_at, saved_by FROM form_versions WHERE site = $1 AND slug = $2 ORDER BY version DESC`, site, slug)
	if err != nil {
		return nil, db.errorf("form %s/%s versions: %w", site, slug, err)
	}
	return out, nil
}

const formColumns = `site, slug, last_version, live_version, sealed_version, revision, created_at, updated_at, published_at`

func scanForm(row scanner) (formsource.Record, error) {
	var r formsource.Record
	var live, published sql.NullInt64
	var sealed, created, updated int64
	if err := row.Scan(&r.Site, &r.Slug, &r.LastVersion, &live, &sealed, &r.Revision, &created, &updated, &published); err != nil {
		return formsource.Record{}, err
	}
	r.LiveVersion, r.Draft = live.Int64, r.LastVersion > sealed
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
