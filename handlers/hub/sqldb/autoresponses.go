package sqldb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Day returns the day of t, UTC, as a number of days since the Unix epoch:
// the unit of the confirmation e-mails' budget.
func Day(t time.Time) int64 {
	return t.UTC().Unix() / 86400
}

// AddressKey returns what the hub keeps of an e-mail address to count what
// it sent there: the hex SHA-256 of the address lower-cased, so that the
// table of counts holds no address.
func AddressKey(address string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(address)))
	return hex.EncodeToString(sum[:])
}

// TakeAutoresponse counts one confirmation e-mail to address for the form
// site/slug on day (see Day), in tx, the transaction that stores the
// submission it confirms, and reports whether it is within limit per day.
// One that is not is not counted. The count is one upsert that increments
// only below limit, which the database applies atomically however many
// hubs count at once; a submission rolled back takes its count back.
func TakeAutoresponse(ctx context.Context, tx Tx, site, slug, address string, day int64, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	var count int64
	err := tx.QueryRowContext(ctx,
		`INSERT INTO autoresponses (site, form, address, day, count) VALUES ($1, $2, $3, $4, 1)
		ON CONFLICT (site, form, address, day) DO UPDATE SET count = autoresponses.count + 1
		WHERE autoresponses.count < $5
		RETURNING count`,
		text(site), text(slug), AddressKey(address), day, limit).Scan(&count)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // the WHERE held the row back: the budget is spent
	}
	if err != nil {
		return false, fmt.Errorf("autoresponse budget of %s/%s: %w", site, slug, err)
	}
	return true, nil
}

// PruneAutoresponses deletes, in tx, the counts of the days before
// yesterday (days are those of Day), which no budget or mail quota reads
// any more, and returns how many it deleted.
func PruneAutoresponses(ctx context.Context, tx Tx, today int64) (int64, error) {
	var total int64
	for _, table := range []string{"autoresponses", "workspace_mail"} {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE day < $1`, today-1)
		if err != nil {
			return 0, fmt.Errorf("pruning the counts of %s: %w", table, err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
