package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
)

// eraseBatch is how many candidate submissions ErasePerson reads, and
// deletes of them, in one transaction: a person with many submissions does
// not hold the database's writer for long.
const eraseBatch = 200

// workspaceSites selects the submissions of the sites of the workspace
// given as $1.
const workspaceSites = `site IN (SELECT site FROM sites WHERE workspace = $1)`

// Erasure is what ErasePerson deleted: the submissions and the keys of
// their files, which the caller deletes from the file storage, and the ids
// of the submissions, whose pending deliveries the caller deletes.
type Erasure struct {
	hub.Deleted
	IDs []string
	// Drafts is how many drafts were deleted; the keys of the files they
	// alone held are in Files.
	Drafts int
}

// PersonSubmissions calls fn for each submission of the sites of workspace
// whose values hold the e-mail address email (see HoldsAddress), in id
// order. Rows are read as fn consumes them, not loaded first; the database
// narrows them to the payloads that contain the address somewhere, and
// each is then decoded and decided exactly. An error from fn stops the
// listing and is returned as is.
func (db *DB) PersonSubmissions(ctx context.Context, workspace, email string, fn func(hub.Submission) error) error {
	email = normalAddress(email)
	if email == "" {
		return nil
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+submissionColumns+` FROM submissions
		WHERE `+workspaceSites+` AND deleted_at IS NULL AND LOWER(payload) LIKE $2 ESCAPE '\' ORDER BY id`, workspace, searchPattern(email))
	if err != nil {
		return db.errorf("submissions of a person: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return db.errorf("submissions of a person: %w", err)
		}
		s, err := scanSubmission(rows)
		if err != nil {
			return db.errorf("submissions of a person: %w", err)
		}
		if !HoldsAddress(s.Payload, email) {
			continue
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return db.errorf("submissions of a person: %w", err)
	}
	return nil
}

// ErasePerson deletes every submission of the sites of workspace whose
// values hold the e-mail address email (see HoldsAddress), with the
// records of their files; the rows that enforce unique values go with
// them. Then it deletes the drafts that hold the address, in their values
// or as the address their link was mailed to, with the records of the
// files no submission took. It works in batches of one transaction each, so a failure midway
// leaves the batches before it erased: running it again finishes the work.
func (db *DB) ErasePerson(ctx context.Context, workspace, email string) (Erasure, error) {
	var e Erasure
	email = normalAddress(email)
	if email == "" {
		return e, nil
	}
	pattern := searchPattern(email)
	after := ""
	for {
		scanned := 0
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			rows, err := tx.QueryContext(ctx, `SELECT id, payload FROM submissions
				WHERE `+workspaceSites+` AND LOWER(payload) LIKE $2 ESCAPE '\' AND id > $3 ORDER BY id LIMIT $4`,
				workspace, pattern, after, eraseBatch)
			if err != nil {
				return err
			}
			var ids []string
			for rows.Next() {
				var id, payload string
				if err := rows.Scan(&id, &payload); err != nil {
					rows.Close()
					return err
				}
				scanned++
				after = id
				if HoldsAddress(json.RawMessage(payload), email) {
					ids = append(ids, id)
				}
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if err := rows.Err(); err != nil || len(ids) == 0 {
				return err
			}
			return erasePersonIDs(ctx, tx, workspace, ids, &e)
		})
		if err != nil {
			return e, db.errorf("erase a person's submissions: %w", err)
		}
		if scanned < eraseBatch {
			break
		}
	}
	if err := db.inTx(ctx, func(tx *sql.Tx) error { return erasePersonDrafts(ctx, tx, workspace, email, &e) }); err != nil {
		return e, db.errorf("erase a person's drafts: %w", err)
	}
	return e, nil
}

// erasePersonDrafts deletes the drafts of workspace that hold the address
// email (normalized), with their tokens and the records of the files they
// held that no submission took, and adds what it deleted to e. Drafts are
// few and short-lived: one transaction takes them all.
func erasePersonDrafts(ctx context.Context, tx *sql.Tx, workspace, email string, e *Erasure) error {
	var ids []string
	err := personDrafts(ctx, tx, workspace, email, func(d hub.Draft) error {
		ids = append(ids, d.ID)
		return nil
	})
	if err != nil || len(ids) == 0 {
		return err
	}
	for chunk := range slices.Chunk(ids, maxIDs) {
		// The files no submission took go with the person's drafts; the
		// rest of the drafts goes as the sweep's does.
		inIDs, args := in(chunk, nil)
		keys, err := scanRows(tx.QueryContext(ctx, `DELETE FROM uploads WHERE submission_id IS NULL AND draft_id `+inIDs+` RETURNING key`, args...))
		if err != nil {
			return err
		}
		n, err := deleteDrafts(ctx, tx, chunk)
		if err != nil {
			return err
		}
		e.Drafts += n
		e.Files = append(e.Files, keys...)
	}
	return nil
}

// erasePersonIDs deletes the submissions of workspace with the ids, their
// upload records first, which reference them, and adds what it deleted to
// e.
func erasePersonIDs(ctx context.Context, tx *sql.Tx, workspace string, ids []string, e *Erasure) error {
	inIDs, args := in(ids, []any{workspace})
	rows, err := tx.QueryContext(ctx, `DELETE FROM uploads WHERE submission_id IN
		(SELECT id FROM submissions WHERE `+workspaceSites+` AND id `+inIDs+`) RETURNING key`, args...)
	if err != nil {
		return err
	}
	keys, err := scanStrings(rows)
	if err != nil {
		return err
	}
	rows, err = tx.QueryContext(ctx, `DELETE FROM submissions WHERE `+workspaceSites+` AND id `+inIDs+` RETURNING id`, args...)
	if err != nil {
		return err
	}
	deleted, err := scanStrings(rows)
	if err != nil {
		return err
	}
	e.Submissions += len(deleted)
	e.Files = append(e.Files, keys...)
	e.IDs = append(e.IDs, deleted...)
	return nil
}

// HoldsAddress reports whether the values of payload hold the e-mail
// address email: a value equal to it, or a list holding a value equal to
// it, ignoring case and the spaces around it. A value that only contains
// it, such as a longer address or a message quoting it, does not count.
func HoldsAddress(payload json.RawMessage, email string) bool {
	email = normalAddress(email)
	if email == "" {
		return false
	}
	var values map[string]any
	if json.Unmarshal(payload, &values) != nil {
		return false
	}
	is := func(v any) bool {
		s, ok := v.(string)
		return ok && strings.EqualFold(strings.TrimSpace(s), email)
	}
	for _, v := range values {
		if is(v) {
			return true
		}
		if list, ok := v.([]any); ok {
			for _, item := range list {
				if is(item) {
					return true
				}
			}
		}
	}
	return false
}

// personDrafts calls fn with each draft of workspace that holds the
// address email (normalized): mailed to it, or holding it among its values
// (see HoldsAddress), in id order. The database narrows the rows; each is
// then decided exactly. An error from fn stops the listing.
func personDrafts(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, workspace, email string, fn func(hub.Draft) error) error {
	rows, err := q.QueryContext(ctx, `SELECT `+draftColumns+` FROM drafts
		WHERE `+workspaceSites+` AND (LOWER(email) = $2 OR LOWER(payload) LIKE $3 ESCAPE '\') ORDER BY id`, workspace, email, searchPattern(email))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		d, err := scanDraft(rows)
		if err != nil {
			return err
		}
		if normalAddress(d.Email) != email && !HoldsAddress(d.Payload, email) {
			continue
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PersonDrafts calls fn for each draft of the sites of workspace that
// holds the e-mail address email: mailed to it, or holding it among its
// values (see HoldsAddress), in id order. An error from fn stops the
// listing and is returned as is.
func (db *DB) PersonDrafts(ctx context.Context, workspace, email string, fn func(hub.Draft) error) error {
	email = normalAddress(email)
	if email == "" {
		return nil
	}
	var fnErr error
	err := personDrafts(ctx, db.r, workspace, email, func(d hub.Draft) error {
		fnErr = fn(d)
		return fnErr
	})
	switch {
	case fnErr != nil:
		return fnErr
	case err != nil:
		return db.errorf("drafts of a person: %w", err)
	}
	return nil
}

// normalAddress is email as it is looked for: without the spaces around
// it, in lower case.
func normalAddress(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}
