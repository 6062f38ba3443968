-- The inbox's search at scale (SQLite's version; PostgreSQL's 00019 does
-- nothing, its 00016 indexes the payloads' trigrams). submission_search
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
CREATE VIRTUAL TABLE submission_search USING fts5(
    payload, content = '', contentless_delete = 1, tokenize = 'trigram'
);

-- A segment is not rewritten because of the rows deleted from it: at a
-- million submissions, retention's deletes rewrote a large segment in one
-- transaction that held the writer for half a second.
INSERT INTO submission_search (submission_search, rank) VALUES ('deletemerge', 0);

CREATE TABLE submission_search_queue (rowid INTEGER PRIMARY KEY);

-- +goose StatementBegin
CREATE TRIGGER submission_search_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO submission_search_queue (rowid) VALUES (NEW.rowid);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submission_search_delete AFTER DELETE ON submissions BEGIN
    DELETE FROM submission_search_queue WHERE rowid = OLD.rowid;
    DELETE FROM submission_search WHERE rowid = OLD.rowid;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submission_search_update AFTER UPDATE OF payload ON submissions
WHEN OLD.payload IS NOT NEW.payload
BEGIN
    DELETE FROM submission_search WHERE rowid = OLD.rowid;
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
