package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// The DB keeps the drafts of the hub.
var _ hub.DraftStore = (*DB)(nil)

const draftColumns = "id, site, form, payload, step, attachments, locale, email, resume_url, created_at, updated_at, expires_at"

// DraftHook runs in the transaction that stores d, created or updated with
// an e-mail address, after d is stored and its uploads held: it may queue
// the e-mail of the link, through Tx.Raw, and answers whether it did. An
// error rolls the transaction back: nothing of d is stored, and
// CreateDraft or UpdateDraft returns the error.
type DraftHook func(ctx context.Context, tx Tx, d hub.Draft) (mailed bool, err error)

// SetDraftHook has h run in the transaction of every draft stored with an
// e-mail address from now on. Call it before the DB is shared.
func (db *DB) SetDraftHook(h DraftHook) { db.onDraft = h }

// A draftRow is a draft as stored.
type draftRow struct {
	d                    hub.Draft
	payload, attachments string
}

// draftRowOf checks d, which the action names for errors, and returns it
// as stored. Texts a visitor sent are made storable (see text).
func (db *DB) draftRowOf(action string, d hub.Draft, tokenHash string) (draftRow, error) {
	if tokenHash == "" {
		return draftRow{}, db.errorf("%s: empty token hash", action)
	}
	if d.Site == "" || d.Slug == "" {
		return draftRow{}, db.errorf("%s: site and form must be set", action)
	}
	if d.UpdatedAt.IsZero() || d.ExpiresAt.IsZero() {
		return draftRow{}, db.errorf("%s: UpdatedAt and ExpiresAt must be set", action)
	}
	payload := d.Payload
	if len(payload) == 0 {
		payload = json.RawMessage("{}")
	}
	// As for a submission: PostgreSQL's TEXT refuses what is not UTF-8.
	if !json.Valid(payload) || !utf8.Valid(payload) {
		return draftRow{}, db.errorf("%s: payload is not valid JSON in UTF-8", action)
	}
	atts := d.Attachments
	if atts == nil {
		atts = []hubclient.Attachment{}
	}
	attsJSON, err := json.Marshal(atts)
	if err != nil {
		return draftRow{}, db.errorf("%s: %w", action, err)
	}
	d.Payload, d.Attachments = payload, atts
	d.Step, d.Locale, d.Email, d.ResumeURL = text(d.Step), text(d.Locale), text(d.Email), text(d.ResumeURL)
	return draftRow{d: d, payload: string(payload), attachments: string(attsJSON)}, nil
}

// CreateDraft stores d, found by tokenHash from now on, and has it hold
// the uploads its attachments name, in one transaction: an upload missing,
// of another form, claimed by a submission or held by another draft gives
// an error wrapping hub.ErrUploadClaim and nothing is stored. Whether an
// upload's body was received is not checked. d.ID, d.CreatedAt,
// d.UpdatedAt and d.ExpiresAt must be set. With d.Email set, the DB's
// DraftHook, if any, runs in the same transaction and mailed is what it
// answered; otherwise mailed is false.
func (db *DB) CreateDraft(ctx context.Context, d hub.Draft, tokenHash string) (mailed bool, err error) {
	if d.ID == "" {
		return false, db.errorf("create draft: empty id")
	}
	action := "create draft " + d.ID
	if d.CreatedAt.IsZero() {
		return false, db.errorf("%s: CreatedAt must be set", action)
	}
	row, err := db.draftRowOf(action, d, tokenHash)
	if err != nil {
		return false, err
	}
	return db.saveDraft(ctx, action, row, func(tx Tx, row *draftRow) error {
		d := row.d
		_, err := tx.ExecContext(ctx,
			`INSERT INTO drafts (`+draftColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			d.ID, d.Site, d.Slug, row.payload, d.Step, row.attachments, d.Locale, d.Email, d.ResumeURL,
			millis(d.CreatedAt), millis(d.UpdatedAt), millis(d.ExpiresAt))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO draft_tokens (hash, draft_id) VALUES ($1, $2)`, tokenHash, d.ID); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		return nil
	})
}

// saveDraft stores the draft of row in one transaction: store writes it
// (and may change row.d), then the draft holds the uploads it lists and,
// with an e-mail address, the DraftHook runs; mailed is what it answered.
func (db *DB) saveDraft(ctx context.Context, action string, row draftRow, store func(tx Tx, row *draftRow) error) (mailed bool, err error) {
	w, err := db.writer()
	if err != nil {
		return false, err
	}
	err = inHookTx(ctx, w, func(tx Tx) error {
		if err := store(tx, &row); err != nil {
			return err
		}
		if err := hold(ctx, tx.Tx, row.d); err != nil {
			return err
		}
		mailed, err = db.runDraftHook(ctx, tx, row.d)
		return err
	})
	if err != nil {
		return false, db.full(db.errorf("%s: %w", action, err))
	}
	return mailed, nil
}

// UpdateDraft replaces what a visitor changes of the draft of d.Site and
// d.Slug that tokenHash finds: its payload, step, attachments, locale,
// e-mail, resume URL, UpdatedAt and ExpiresAt. The draft's id and
// CreatedAt are kept; those of d are ignored. From then on newHash alone
// finds the draft: every token it had, tokenHash among them, is retired.
// A draft not found, of another form, or expired at d.UpdatedAt
// (ExpiresAt not after it) is an error wrapping hub.ErrNotFound. The
// uploads the draft no longer lists are released to the sweep and those it
// lists held as CreateDraft holds them, refusals and DraftHook alike.
func (db *DB) UpdateDraft(ctx context.Context, d hub.Draft, tokenHash, newHash string) (mailed bool, err error) {
	action := fmt.Sprintf("update draft of %s/%s", d.Site, d.Slug)
	if newHash == "" || newHash == tokenHash {
		return false, db.errorf("%s: the new token hash must be set, and differ from the old", action)
	}
	row, err := db.draftRowOf(action, d, tokenHash)
	if err != nil {
		return false, err
	}
	return db.saveDraft(ctx, action, row, func(tx Tx, row *draftRow) error {
		d := &row.d
		// One statement finds and changes the draft, so one deleted or
		// expired meanwhile is not found rather than changed.
		var created int64
		err := tx.QueryRowContext(ctx,
			`UPDATE drafts SET payload = $1, step = $2, attachments = $3, locale = $4, email = $5, resume_url = $6,
			updated_at = $7, expires_at = $8
			WHERE id = (SELECT draft_id FROM draft_tokens WHERE hash = $9) AND site = $10 AND form = $11 AND expires_at > $7
			RETURNING id, created_at`,
			row.payload, d.Step, row.attachments, d.Locale, d.Email, d.ResumeURL,
			millis(d.UpdatedAt), millis(d.ExpiresAt), tokenHash, d.Site, d.Slug).Scan(&d.ID, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return hub.ErrNotFound
		}
		if err != nil {
			return err
		}
		d.CreatedAt = fromMillis(created)
		// Whoever held a token before, such as someone who saved the
		// draft with another's address, reads nothing saved from now on.
		if _, err := tx.ExecContext(ctx, `DELETE FROM draft_tokens WHERE draft_id = $1`, d.ID); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO draft_tokens (hash, draft_id) VALUES ($1, $2)`, newHash, d.ID); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		keys := make([]string, 0, len(d.Attachments))
		for _, a := range d.Attachments {
			keys = append(keys, a.Key)
		}
		return releaseUnlisted(ctx, tx.Tx, d.ID, keys)
	})
}

// runDraftHook runs the DraftHook for d when d has an e-mail address.
func (db *DB) runDraftHook(ctx context.Context, tx Tx, d hub.Draft) (bool, error) {
	if db.onDraft == nil || d.Email == "" {
		return false, nil
	}
	return db.onDraft(ctx, tx, d)
}

// hold marks the uploads d's attachments name as held by d. One
// conditional UPDATE per upload both checks and holds, so two drafts, or
// a draft and a submission, racing for an upload cannot both have it.
func hold(ctx context.Context, tx *sql.Tx, d hub.Draft) error {
	for _, a := range d.Attachments {
		res, err := tx.ExecContext(ctx,
			`UPDATE uploads SET draft_id = $1
			WHERE key = $2 AND site = $3 AND form = $4 AND submission_id IS NULL AND (draft_id IS NULL OR draft_id = $1)`,
			d.ID, a.Key, d.Site, d.Slug)
		if err != nil {
			return fmt.Errorf("attachment %q: %w", a.Key, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("attachment %q: %w", a.Key, err)
		}
		if n != 1 {
			return fmt.Errorf("attachment %q: %s: %w", a.Key, holdRefusal(ctx, tx, d, a.Key), hub.ErrUploadClaim)
		}
	}
	return nil
}

// holdRefusal says why d cannot hold the upload with the given key, for
// the error; the refusal itself was decided by hold.
func holdRefusal(ctx context.Context, tx *sql.Tx, d hub.Draft, key string) string {
	var (
		site, slug        string
		claimedBy, heldBy sql.NullString
	)
	err := tx.QueryRowContext(ctx, `SELECT site, form, submission_id, draft_id FROM uploads WHERE key = $1`, key).
		Scan(&site, &slug, &claimedBy, &heldBy)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "no such upload"
	case err != nil:
		return "upload unreadable: " + err.Error()
	case site != d.Site || slug != d.Slug:
		return "upload belongs to another form"
	case claimedBy.Valid:
		return "upload already claimed"
	case heldBy.Valid && heldBy.String != d.ID:
		return "upload held by another draft"
	}
	return "upload changed meanwhile"
}

// releaseUnlisted releases the uploads the draft with the given id holds
// whose keys are not among keys.
func releaseUnlisted(ctx context.Context, tx *sql.Tx, id string, keys []string) error {
	if len(keys) == 0 {
		_, err := tx.ExecContext(ctx, `UPDATE uploads SET draft_id = NULL WHERE draft_id = $1`, id)
		return err
	}
	// A draft lists a form's few files; the longest list a visitor can
	// send is still cut into statements of maxIDs keys.
	held, err := scanRows(tx.QueryContext(ctx, `SELECT key FROM uploads WHERE draft_id = $1`, id))
	if err != nil {
		return err
	}
	var gone []string
	for _, k := range held {
		if !slices.Contains(keys, k) {
			gone = append(gone, k)
		}
	}
	for chunk := range slices.Chunk(gone, maxIDs) {
		inKeys, args := in(chunk, []any{id})
		if _, err := tx.ExecContext(ctx, `UPDATE uploads SET draft_id = NULL WHERE draft_id = $1 AND key `+inKeys, args...); err != nil {
			return err
		}
	}
	return nil
}

// scanRows is scanStrings of the result of a query.
func scanRows(rows *sql.Rows, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	return scanStrings(rows)
}

// DraftByToken returns the draft of site and slug that tokenHash finds
// while now is before its ExpiresAt, compared in milliseconds as stored,
// or an error wrapping hub.ErrNotFound. Its Attachments are empty, not
// nil, when it holds no file.
func (db *DB) DraftByToken(ctx context.Context, site, slug, tokenHash string, now time.Time) (hub.Draft, error) {
	d, err := scanDraft(db.r.QueryRowContext(ctx,
		`SELECT `+draftColumns+` FROM drafts
		WHERE id = (SELECT draft_id FROM draft_tokens WHERE hash = $1) AND site = $2 AND form = $3 AND expires_at > $4`,
		tokenHash, site, slug, millis(now)))
	if errors.Is(err, sql.ErrNoRows) {
		err = hub.ErrNotFound
	}
	if err != nil {
		return hub.Draft{}, db.errorf("draft of %s/%s by token: %w", site, slug, err)
	}
	return d, nil
}

// DraftByID returns the draft with the given id, expired or not, or an
// error wrapping hub.ErrNotFound.
func (db *DB) DraftByID(ctx context.Context, id string) (hub.Draft, error) {
	d, err := scanDraft(db.r.QueryRowContext(ctx, `SELECT `+draftColumns+` FROM drafts WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = hub.ErrNotFound
	}
	if err != nil {
		return hub.Draft{}, db.errorf("draft %s: %w", id, err)
	}
	return d, nil
}

// AddDraftToken has the draft with the given id found by tokenHash as
// well, expired or not. A draft that does not exist, deleted meanwhile
// included, is an error wrapping hub.ErrNotFound; a hash already in use
// is an error.
func (db *DB) AddDraftToken(ctx context.Context, id, tokenHash string) error {
	w, err := db.writer()
	if err != nil {
		return err
	}
	if tokenHash == "" {
		return db.errorf("add token to draft %s: empty token hash", id)
	}
	// One statement checks and inserts: a token cannot outlive a draft
	// deleted meanwhile.
	res, err := w.ExecContext(ctx,
		`INSERT INTO draft_tokens (hash, draft_id) SELECT $1, id FROM drafts WHERE id = $2`, tokenHash, id)
	if err != nil {
		return db.errorf("add token to draft %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return db.errorf("add token to draft %s: %w", id, err)
	} else if n == 0 {
		return db.errorf("add token to draft %s: %w", id, hub.ErrNotFound)
	}
	return nil
}

// DeleteExpiredDrafts deletes, oldest first, at most limit drafts whose
// ExpiresAt is before now, with their tokens, releasing their uploads to
// the sweep, and returns how many it deleted. A draft whose ExpiresAt is
// now is no longer found (DraftByToken) but is deleted by a later call.
func (db *DB) DeleteExpiredDrafts(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	n := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		ids, err := scanRows(tx.QueryContext(ctx,
			`SELECT id FROM drafts WHERE expires_at < $1 ORDER BY expires_at, id LIMIT $2`, millis(now), limit))
		if err != nil {
			return err
		}
		for chunk := range slices.Chunk(ids, maxIDs) {
			m, err := deleteDrafts(ctx, tx, chunk)
			if err != nil {
				return err
			}
			n += m
		}
		return nil
	})
	if err != nil {
		return 0, db.errorf("delete expired drafts: %w", err)
	}
	return n, nil
}

// deleteDrafts deletes the drafts with the given ids, at most maxIDs, and
// their tokens, releases their uploads, and returns how many drafts it
// deleted: a draft another transaction deleted meanwhile is not counted.
func deleteDrafts(ctx context.Context, tx *sql.Tx, ids []string) (int, error) {
	inIDs, args := in(ids, nil)
	if _, err := tx.ExecContext(ctx, `DELETE FROM draft_tokens WHERE draft_id `+inIDs, args...); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE uploads SET draft_id = NULL WHERE draft_id `+inIDs, args...); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM drafts WHERE id `+inIDs, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// finishDraft deletes the draft of site and slug that tokenHash finds,
// expired or not, as deleteDrafts does. A hash that finds none, or the
// draft of another form, leaves everything as it is: the submission that
// finishes a draft is stored even if the draft is gone.
func finishDraft(ctx context.Context, tx *sql.Tx, site, slug, tokenHash string) error {
	var id string
	err := tx.QueryRowContext(ctx,
		`SELECT id FROM drafts WHERE id = (SELECT draft_id FROM draft_tokens WHERE hash = $1) AND site = $2 AND form = $3`,
		tokenHash, site, slug).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = deleteDrafts(ctx, tx, []string{id})
	return err
}

// scanDraft reads the columns draftColumns names.
func scanDraft(s scanner) (hub.Draft, error) {
	var (
		d                         hub.Draft
		payload, attsRaw          string
		created, updated, expires int64
	)
	err := s.Scan(&d.ID, &d.Site, &d.Slug, &payload, &d.Step, &attsRaw, &d.Locale, &d.Email, &d.ResumeURL, &created, &updated, &expires)
	if err != nil {
		return hub.Draft{}, err
	}
	d.Payload = json.RawMessage(payload)
	d.CreatedAt, d.UpdatedAt, d.ExpiresAt = fromMillis(created), fromMillis(updated), fromMillis(expires)
	d.Attachments = []hubclient.Attachment{}
	if err := json.Unmarshal([]byte(attsRaw), &d.Attachments); err != nil {
		return hub.Draft{}, fmt.Errorf("draft %s: attachments: %w", d.ID, err)
	}
	return d, nil
}
