-- The inbox's search at scale: PostgreSQL's version indexes the payloads'
-- trigrams. SQLite's stays without an index: an FTS5 table kept in step
-- in each submission's transaction (trigrams, or words) divided the rate
-- of submissions stored by four to eight, which a hub on SQLite, with its
-- one writer, cannot spare. A search walks the form's submissions newest
-- first and stops at a page's worth, as before (00019 indexes them
-- without slowing the writer). The version is kept so
-- that SQLite's migrations count as PostgreSQL's do.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
