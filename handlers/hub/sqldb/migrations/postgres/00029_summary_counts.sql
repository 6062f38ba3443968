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

-- The counts change once a statement, summed by row of summary_counts
-- first (in their order, so that transactions at once take the rows in
-- the same order): a statement that deletes or marks thousands of
-- submissions updates each row it touches once, not once a submission,
-- each update a version of the row the next must walk past.
-- +goose StatementBegin
CREATE FUNCTION summary_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_counts AS c (site, form, day, field, answer, slot, n, total)
    SELECT site, form, day, field, answer, pg_backend_pid() % 8, SUM(n), SUM(total) FROM (
        SELECT o.site, o.form, o.created_at / 86400000 AS day, t->>0 AS field, t->>1 AS answer, -1 AS n, -(t->>2)::double precision AS total
        FROM old_rows o CROSS JOIN jsonb_array_elements(o.tallies::jsonb) t
        WHERE o.tallies IS NOT NULL AND NOT o.spam AND o.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM summary_queue q WHERE q.id = o.id)
        UNION ALL
        SELECT w.site, w.form, w.created_at / 86400000, t->>0, t->>1, 1, (t->>2)::double precision
        FROM new_rows w JOIN old_rows p ON p.id = w.id AND p.tallies IS NOT NULL
            CROSS JOIN jsonb_array_elements(w.tallies::jsonb) t
        WHERE w.tallies IS NOT NULL AND NOT w.spam AND w.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM summary_queue q WHERE q.id = w.id)
    ) changes GROUP BY site, form, day, field, answer HAVING SUM(n) <> 0 OR SUM(total) <> 0
    ORDER BY site, form, day, field, answer
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = c.n + EXCLUDED.n, total = c.total + EXCLUDED.total;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION summary_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_counts AS c (site, form, day, field, answer, slot, n, total)
    SELECT o.site, o.form, o.created_at / 86400000, t->>0, t->>1, pg_backend_pid() % 8, -COUNT(*), -SUM((t->>2)::double precision)
    FROM old_rows o CROSS JOIN jsonb_array_elements(o.tallies::jsonb) t
    WHERE o.tallies IS NOT NULL AND NOT o.spam AND o.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM summary_queue q WHERE q.id = o.id)
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = c.n + EXCLUDED.n, total = c.total + EXCLUDED.total;
    DELETE FROM summary_queue WHERE id IN (SELECT id FROM old_rows);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions
    FOR EACH ROW WHEN (NEW.tallies IS NOT NULL)
    EXECUTE FUNCTION summary_queue_add();
CREATE TRIGGER summary_counts_delete AFTER DELETE ON submissions
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION summary_counts_delete();
-- A trigger with transition tables takes no list of columns: it runs
-- after every UPDATE, whose rows changed in nothing counted sum to none.
-- Tallies given to a submission stored without them are counted by
-- TallySubmissions itself, as on SQLite, whose trigger does not run for
-- them: only rows that had tallies before count here.
CREATE TRIGGER summary_counts_update AFTER UPDATE ON submissions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION summary_counts_update();

-- +goose Down
DROP TRIGGER summary_counts_update ON submissions;
DROP TRIGGER summary_counts_delete ON submissions;
DROP TRIGGER summary_queue_insert ON submissions;
DROP FUNCTION summary_counts_delete();
DROP FUNCTION summary_counts_update();
DROP FUNCTION summary_queue_add();
DROP TABLE summary_queue;
DROP TABLE summary_counts;
DROP INDEX submissions_untallied;
ALTER TABLE submissions DROP COLUMN tallies;
