package sqldb

import (
	"database/sql"
	"strings"
	"time"
)

// millis is t as stored: Unix milliseconds, so times compare and sort as
// integers on every database.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis is the inverse of millis, in UTC.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// nullMillis stores the zero time as NULL.
func nullMillis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: millis(t), Valid: true}
}

// fromNullMillis is the inverse of nullMillis.
func fromNullMillis(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return fromMillis(ms.Int64)
}

// nullInt stores 0 as NULL.
func nullInt(n int64) sql.NullInt64 { return sql.NullInt64{Int64: n, Valid: n != 0} }

// nullString stores the empty string as NULL.
func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

// text makes s storable as TEXT on every database. Headers such as the
// user agent may hold any bytes, but PostgreSQL accepts neither NUL nor
// invalid UTF-8; both become U+FFFD, on SQLite too, so that what is stored
// does not depend on the database.
func text(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}
