// Package sqldb is the hub's database over database/sql: the submissions,
// the drafts to finish later, the uploads the hub signed URLs for, the
// rate-limit counters that hubs sharing a database share, and the owners'
// side: users, console sessions (see [Sessions]) and API tokens, the
// secrets among them kept as hashes. Packages sqlite and postgres open a
// [DB] on their database; the queries, the migrations and the rules are
// here, once.
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
// of 3 characters or more is looked up in a trigram index, which proposes
// while LIKE decides, so the results are the same as without it: on
// PostgreSQL pg_trgm's GIN index of submission_search, the lowered
// payloads (migration 00020); on SQLite an FTS5 table of trigrams
// (migration 00019). Indexing in each submission's transaction cost a
// fifth (PostgreSQL) to a half (SQLite) of the rate of submissions
// stored, so a trigger only queues the submission in
// submission_search_queue, and the DB indexes the queue when writing is
// quiet (see [DB.IndexQueued]); a search asks the index and reads the
// queued submissions beside it. A term SQLite's index finds in many
// submissions, and a shorter term, walk the form's submissions newest
// first and stop at a page's worth.
// A page of an indexed search or of dates first reads the submissions
// nearest its cursor, which a common term fills, and asks the indexes
// only when they do not: a page of dates then sorts the ids of its
// dates from the index of creation times, which holds ids and spam marks
// (migration 00017), and the spam view walks an index of the spam alone.
//
// Counts of a form's submissions, in all or by intervals of whole quarters
// of an hour, sum submission_counts (migration 00018): the submissions of
// each form, quarter of an hour and spam mark, kept by triggers on
// submissions in every writer's transaction. The parts of quarters at the
// ends of unaligned dates, and counts that search or have a cursor, count
// the submissions themselves.
//
// Every rule that must hold with several hubs on one database is a single
// statement the database applies atomically: an upload is claimed by a
// conditional UPDATE that only one submission can win, swept by a DELETE
// that spares claimed uploads, an idempotency key is taken by an insert that
// a unique index lets only one submission of a form make, and a request is
// counted by one upsert.
package sqldb
