package sqldb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// Key returns the key of the given name that every hub of the database
// shares, of size bytes, making it on the first call on the database. Hubs
// starting at once agree on one: each offers a random key, the first
// insert wins, and all read the one stored. A stored key of another size
// is an error, as is a read-only database without the key.
func (db *DB) Key(ctx context.Context, name string, size int) ([]byte, error) {
	if db.w != nil {
		offer := make([]byte, size)
		rand.Read(offer)
		if _, err := db.w.ExecContext(ctx, `INSERT INTO hub_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			name, hex.EncodeToString(offer)); err != nil {
			return nil, db.errorf("storing the key %s: %w", name, err)
		}
	}
	var stored string
	if err := db.r.QueryRowContext(ctx, `SELECT value FROM hub_keys WHERE name = $1`, name).Scan(&stored); err != nil {
		return nil, db.errorf("reading the key %s: %w", name, err)
	}
	key, err := hex.DecodeString(stored)
	if err != nil || len(key) != size {
		return nil, db.errorf("the key %s: %w", name, fmt.Errorf("not %d bytes of hex", size))
	}
	return key, nil
}
