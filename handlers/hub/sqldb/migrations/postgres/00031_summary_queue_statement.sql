-- The summary's queue is filled once a statement (PostgreSQL's version;
-- SQLite's 00031 changes nothing). 00029's trigger ran for each row a
-- PL/pgSQL function whose INSERT, given the row's id as a parameter, was
-- planned again every time (the hub's connections ask for custom plans):
-- about 6.5 µs of the server's time a submission stored, where storing
-- it takes about 44. A statement trigger over the rows inserted, as the
-- search queue's (00020), reads the transition table PostgreSQL already
-- keeps for that one, with a plan made once: about 1.5 µs (figures in
-- cmd/hubform/BENCHMARKS.md). What a submission adds to the queue is the
-- same, its id, in the same transaction, after the same statement.

-- +goose Up
DROP TRIGGER summary_queue_insert ON submissions;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION summary_queue_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_queue (id) SELECT id FROM new_rows WHERE tallies IS NOT NULL;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION summary_queue_add();

-- +goose Down
DROP TRIGGER summary_queue_insert ON submissions;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION summary_queue_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_queue (id) VALUES (NEW.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions
    FOR EACH ROW WHEN (NEW.tallies IS NOT NULL)
    EXECUTE FUNCTION summary_queue_add();
