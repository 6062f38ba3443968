-- The inbox's search at scale, as SQLite's 00019 does it (PostgreSQL's
-- version). pg_trgm's GIN index on submissions, which 00016 built, cost a
-- fifth of the rate of submissions stored: each one's trigrams went into
-- the index's pending list in its transaction. The index now lives on
-- submission_search, the lowered payloads of the submissions indexed so
-- far; a trigger only queues a new submission's id, in the same
-- transaction, and the hub moves queued submissions into
-- submission_search in batches when writing is quiet (sqldb's
-- searchQueue). A search asks submission_search and reads the queued
-- submissions beside it: the two together are always in step with
-- submissions. Existing submissions are queued here and indexed once the
-- hub runs.

-- +goose Up
DROP INDEX IF EXISTS submissions_payload_trgm;

CREATE TABLE submission_search (
    id            TEXT PRIMARY KEY,
    payload_lower TEXT NOT NULL
);
CREATE INDEX submission_search_trgm ON submission_search USING gin (payload_lower gin_trgm_ops);

CREATE TABLE submission_search_queue (id TEXT PRIMARY KEY);

-- +goose StatementBegin
CREATE FUNCTION submission_search_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO submission_search_queue (id) SELECT id FROM inserted;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION submission_search_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM submission_search_queue WHERE id IN (SELECT id FROM deleted);
    DELETE FROM submission_search WHERE id IN (SELECT id FROM deleted);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION submission_search_requeue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM submission_search WHERE id = NEW.id;
    INSERT INTO submission_search_queue (id) VALUES (NEW.id) ON CONFLICT (id) DO NOTHING;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER submission_search_insert AFTER INSERT ON submissions
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION submission_search_queue();
CREATE TRIGGER submission_search_delete AFTER DELETE ON submissions
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION submission_search_forget();
CREATE TRIGGER submission_search_update AFTER UPDATE OF payload ON submissions
    FOR EACH ROW WHEN (OLD.payload IS DISTINCT FROM NEW.payload) EXECUTE FUNCTION submission_search_requeue();

INSERT INTO submission_search_queue (id) SELECT id FROM submissions;

-- +goose Down
DROP TRIGGER submission_search_update ON submissions;
DROP TRIGGER submission_search_delete ON submissions;
DROP TRIGGER submission_search_insert ON submissions;
DROP FUNCTION submission_search_requeue();
DROP FUNCTION submission_search_forget();
DROP FUNCTION submission_search_queue();
DROP TABLE submission_search_queue;
DROP TABLE submission_search;
CREATE INDEX submissions_payload_trgm ON submissions USING gin (LOWER(payload) gin_trgm_ops);
