package sqldb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// RecordEvents appends events to the audit log, in one transaction. An
// event without an ID is given one (see eventID).
func (db *DB) RecordEvents(ctx context.Context, events ...accounts.Event) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		for _, e := range events {
			if e.ID == "" {
				e.ID = eventID(e.At)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO audit_events (id, workspace, at, actor, action, target, client_addr, detail)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				e.ID, nullString(text(e.Workspace)), millis(e.At), text(e.Actor), text(e.Action), text(e.Target), text(e.Client), text(e.Detail)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return db.errorf("record audit events: %w", err)
	}
	return nil
}

// Events returns a page of the audit log of workspace, newest first: at
// most limit events, all before the event id before when it is set. With
// workspace empty it returns the hub's own events.
func (db *DB) Events(ctx context.Context, workspace, before string, limit int) ([]accounts.Event, error) {
	query, args := `SELECT id, COALESCE(workspace, ''), at, actor, action, target, client_addr, detail FROM audit_events WHERE workspace IS NULL`, []any{}
	if workspace != "" {
		query, args = `SELECT id, COALESCE(workspace, ''), at, actor, action, target, client_addr, detail FROM audit_events WHERE workspace = $1`, []any{workspace}
	}
	if before != "" {
		args = append(args, before)
		query += ` AND id < $` + strconv.Itoa(len(args))
	}
	query += ` ORDER BY id DESC`
	if limit > 0 {
		args = append(args, limit)
		query += ` LIMIT $` + strconv.Itoa(len(args))
	}
	out, err := queryAll(ctx, db.r, func(row scanner) (accounts.Event, error) {
		var e accounts.Event
		var at int64
		if err := row.Scan(&e.ID, &e.Workspace, &at, &e.Actor, &e.Action, &e.Target, &e.Client, &e.Detail); err != nil {
			return e, err
		}
		e.At = fromMillis(at)
		return e, nil
	}, query, args...)
	if err != nil {
		return nil, db.errorf("audit events: %w", err)
	}
	return out, nil
}

// eventSeq orders the events one process records within a millisecond.
var eventSeq atomic.Uint64

// eventID returns an id that sorts by at, then, within a millisecond, in
// the order this process recorded the events; random bits keep the ids of
// several hubs apart.
func eventID(at time.Time) string {
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%013d-%08d-%x", max(0, millis(at)), eventSeq.Add(1)%1e8, r)
}
