// Package sqldb is the hub's database over database/sql: the submissions,
// the uploads the hub signed URLs for, the rate-limit counters that hubs
// sharing a database share, and the owners' side: users, console sessions
// (see [Sessions]) and API tokens, the secrets among them kept as hashes. Packages sqlite and postgres open a [DB]
// on their database; the queries, the migrations and the rules are here,
// once.
//
// The schema and the queries use only what SQLite and PostgreSQL share:
// $n placeholders, ON CONFLICT, RETURNING, and BIGINT and TEXT columns.
// Times are kept as Unix milliseconds in UTC and JSON as text. A migration
// that cannot be shared has a file of each database's own, of the same
// version, in migrations/sqlite and migrations/postgres (see [Migrations]).
//
// The inbox's search finds its term as a substring of the payload's JSON
// text, the term written as encoding/json writes it, ignoring the case of
// ASCII letters: LOWER(payload) LIKE '%term%', with % and _ literal. A term
// of 3 characters or more is looked up in a trigram index, which migration
// 00016 makes: an FTS5 table with the trigram tokenizer on SQLite, kept in
// step by triggers, and pg_trgm's GIN index on LOWER(payload) on
// PostgreSQL. The index proposes, LIKE decides, so the results are the
// same on both and as before the index; a shorter term reads every
// payload of the form. A page of a search or of dates first reads the
// submissions nearest its cursor, which a common term fills, and asks the
// indexes only when they do not: a page of dates then sorts the ids of its
// dates from the index of creation times, which holds ids and spam marks
// (migration 00017), and the spam view walks an index of the spam alone.
//
// Every rule that must hold with several hubs on one database is a single
// statement the database applies atomically: an upload is claimed by a
// conditional UPDATE that only one submission can win, swept by a DELETE
// that spares claimed uploads, an idempotency key is taken by an insert that
// a unique index lets only one submission of a form make, and a request is
// counted by one upsert.
package sqldb
