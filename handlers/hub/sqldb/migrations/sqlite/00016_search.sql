-- The inbox's search at scale (SQLite's version; PostgreSQL has its own
-- 00016). A search looks its term up in an FTS5 table of the
-- payloads' trigrams: any substring of 3 characters or more is found
-- without reading every payload. The table is external content: it keeps
-- the index only, the text stays in submissions, and triggers keep it in
-- step with every insert, delete and change of a payload, in the same
-- transaction. It is keyed by the submissions' rowid, which VACUUM keeps.

-- +goose Up
CREATE VIRTUAL TABLE submissions_search USING fts5 (
    payload, content = 'submissions', content_rowid = 'rowid', tokenize = 'trigram'
);

-- +goose StatementBegin
CREATE TRIGGER submissions_search_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO submissions_search (rowid, payload) VALUES (new.rowid, new.payload);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submissions_search_delete AFTER DELETE ON submissions BEGIN
    INSERT INTO submissions_search (submissions_search, rowid, payload) VALUES ('delete', old.rowid, old.payload);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submissions_search_update AFTER UPDATE OF payload ON submissions BEGIN
    INSERT INTO submissions_search (submissions_search, rowid, payload) VALUES ('delete', old.rowid, old.payload);
    INSERT INTO submissions_search (rowid, payload) VALUES (new.rowid, new.payload);
END;
-- +goose StatementEnd

-- The submissions stored before.
INSERT INTO submissions_search (submissions_search) VALUES ('rebuild');

-- +goose Down
DROP TRIGGER submissions_search_update;
DROP TRIGGER submissions_search_delete;
DROP TRIGGER submissions_search_insert;
DROP TABLE submissions_search;
