-- The inbox's search at scale (SQLite's version; PostgreSQL's 00020 does
-- the same with pg_trgm). submission_search
-- is an FTS5 table of the payloads' trigrams, as stored (JSON text), by
-- the submissions' rowids; it keeps no copy of the payloads. Tokenizing a
-- payload and writing an FTS5 segment in each submission's transaction
-- halved the rate of submissions stored, so a trigger only queues the
-- rowid, in the same transaction, and the hub moves queued submissions
-- into submission_search in batches when writing is quiet (sqldb's
-- searchQueue). A search asks submission_search and reads the queued
-- submissions beside it: the two together are always in step with
-- submissions. Existing submissions are queued here and indexed once the
-- hub runs.

-- +goose Up
-- Contentless: a row is deleted from the index with the text it was
-- indexed with, which the triggers read from the submission. (FTS5's
-- contentless_delete, which needs no text, rewrote a growing record of
-- the deleted rows of each large segment in the deleting transaction:
-- retention's deletes held the writer for up to half a second.)
CREATE VIRTUAL TABLE submission_search USING fts5(
    payload, content = '', columnsize = 0, tokenize = 'trigram'
);

CREATE TABLE submission_search_queue (rowid INTEGER PRIMARY KEY);

-- +goose StatementBegin
CREATE TRIGGER submission_search_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO submission_search_queue (rowid) VALUES (NEW.rowid);
END;
-- +goose StatementEnd

-- A submission still queued is not in the index: deleting it there
-- would corrupt the index.
-- +goose StatementBegin
CREATE TRIGGER submission_search_delete AFTER DELETE ON submissions BEGIN
    INSERT INTO submission_search (submission_search, rowid, payload)
    SELECT 'delete', OLD.rowid, OLD.payload
    WHERE NOT EXISTS (SELECT 1 FROM submission_search_queue WHERE rowid = OLD.rowid);
    DELETE FROM submission_search_queue WHERE rowid = OLD.rowid;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submission_search_update AFTER UPDATE OF payload ON submissions
WHEN OLD.payload IS NOT NEW.payload
BEGIN
    INSERT INTO submission_search (submission_search, rowid, payload)
    SELECT 'delete', OLD.rowid, OLD.payload
    WHERE NOT EXISTS (SELECT 1 FROM submission_search_queue WHERE rowid = OLD.rowid);
    INSERT OR IGNORE INTO submission_search_queue (rowid) VALUES (NEW.rowid);
END;
-- +goose StatementEnd

INSERT INTO submission_search_queue (rowid) SELECT rowid FROM submissions;

-- +goose Down
DROP TRIGGER submission_search_update;
DROP TRIGGER submission_search_delete;
DROP TRIGGER submission_search_insert;
DROP TABLE submission_search_queue;
DROP TABLE submission_search;
