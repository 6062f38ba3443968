// Package sqldb is the hub's database over database/sql: the submissions,
// the uploads the hub signed URLs for, the rate-limit counters that hubs
// sharing a database share, and the owners' side: users, console sessions
// (see [Sessions]) and API tokens, the secrets among them kept as hashes. Packages sqlite and postgres open a [DB]
// on their database; the queries, the migrations and the rules are here,
// once.
//
// The schema and the queries use only what SQLite and PostgreSQL share:
// $n placeholders, ON CONFLICT, RETURNING, and BIGINT and TEXT columns.
// Times are kept as Unix milliseconds in UTC and JSON as text.
//
// Every rule that must hold with several hubs on one database is a single
// statement the database applies atomically: an upload is claimed by a
// conditional UPDATE that only one submission can win, swept by a DELETE
// that spares claimed uploads, an idempotency key is taken by an insert that
// a unique index lets only one submission of a form make, and a request is
// counted by one upsert.
package sqldb
