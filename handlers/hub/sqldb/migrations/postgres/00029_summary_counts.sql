-- The counts of each form's answers, for its summary (PostgreSQL's
-- version; SQLite has its own 00029). tallies is what a submission adds
-- to its form's summary, a JSON list of [field, answer, sum] the hub
-- computes from the form as it stores the submission (hub.Tallies); NULL
-- for the submissions stored before, which the console tallies when it
-- first summarises their form (hub.Summaries.TallySubmissions), which counts them.
-- summary_counts holds, for each form, day (created_at / 86400000, in
-- UTC), field and answer, how many submissions gave the answer and the
-- sum of their sums.
--
-- Counting a submission's dozen answers as it is stored would cost about
-- as much as storing it, and have concurrent writers wait on the same
-- rows: a trigger only queues it in summary_queue, and the DB counts the
-- queue when writing is quiet (sqldb.DB.CountQueued); a summary reads the
-- counts and the queued submissions of its form. A submission is counted
-- while it has tallies, is neither spam nor deleted and is no longer
-- queued; triggers take it out of the counts and put it back on every
-- change of the spam mark or deleted_at, and take it out when it
-- is deleted, in the same transaction, so that every path that marks,
-- deletes, restores, purges or erases a submission keeps the counts
-- right. Counting locks the submissions it counts, so that a change of
-- one waits for it, then sees it counted. As submission_counts does,
-- writers add to one of 8 slots, by their connection; the sum of a day's
-- slots is its count.

-- +goose Up
ALTER TABLE submissions ADD COLUMN tallies TEXT;
-- The submissions left to tally, of the form summarised: empty once
-- tallied, and never holding a submission the hub stores now.
CREATE INDEX submissions_untallied ON submissions (site, form, id) WHERE tallies IS NULL;

CREATE TABLE summary_counts (
    site   TEXT NOT NULL,
    form   TEXT NOT NULL,
    day    BIGINT NOT NULL,
    field  TEXT NOT NULL,
    answer TEXT NOT NULL,
    slot   INTEGER NOT NULL,
    n      BIGINT NOT NULL,
    total  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (site, form, day, field, answer, slot)
);

CREATE TABLE summary_queue (id TEXT PRIMARY KEY);

-- +goose StatementBegin
CREATE FUNCTION summary_queue_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_queue (id) VALUES (NEW.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION summary_counts_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM summary_queue WHERE id = OLD.id) THEN
        IF TG_OP = 'DELETE' THEN
            DELETE FROM summary_queue WHERE id = OLD.id;
        END IF;
        RETURN NULL;
    END IF;
    IF OLD.tallies IS NOT NULL AND NOT OLD.spam AND OLD.deleted_at IS NULL THEN
        INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total)
        SELECT OLD.site, OLD.form, OLD.created_at / 86400000, t->>0, t->>1, pg_backend_pid() % 8, -1, -(t->>2)::double precision
        FROM jsonb_array_elements(OLD.tallies::jsonb) t
        ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE
        SET n = summary_counts.n + EXCLUDED.n, total = summary_counts.total + EXCLUDED.total;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.tallies IS NOT NULL AND NOT NEW.spam AND NEW.deleted_at IS NULL THEN
        INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total)
        SELECT NEW.site, NEW.form, NEW.created_at / 86400000, t->>0, t->>1, pg_backend_pid() % 8, 1, (t->>2)::double precision
        FROM jsonb_array_elements(NEW.tallies::jsonb) t
        ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE
        SET n = summary_counts.n + EXCLUDED.n, total = summary_counts.total + EXCLUDED.total;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions
    FOR EACH ROW WHEN (NEW.tallies IS NOT NULL)
    EXECUTE FUNCTION summary_queue_add();
CREATE TRIGGER summary_counts_delete AFTER DELETE ON submissions
    FOR EACH ROW WHEN (OLD.tallies IS NOT NULL)
    EXECUTE FUNCTION summary_counts_step();
CREATE TRIGGER summary_counts_update AFTER UPDATE OF site, form, created_at, spam, deleted_at ON submissions
    FOR EACH ROW WHEN ((OLD.tallies IS NOT NULL AND NOT OLD.spam AND OLD.deleted_at IS NULL)
        OR (NEW.tallies IS NOT NULL AND NOT NEW.spam AND NEW.deleted_at IS NULL))
    EXECUTE FUNCTION summary_counts_step();

-- +goose Down
DROP TRIGGER summary_counts_update ON submissions;
DROP TRIGGER summary_counts_delete ON submissions;
DROP TRIGGER summary_queue_insert ON submissions;
DROP FUNCTION summary_counts_step();
DROP FUNCTION summary_queue_add();
DROP TABLE summary_queue;
DROP TABLE summary_counts;
DROP INDEX submissions_untallied;
ALTER TABLE submissions DROP COLUMN tallies;
