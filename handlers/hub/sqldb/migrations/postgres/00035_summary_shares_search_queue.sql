-- The summary's queue is the search queue's row (PostgreSQL's version;
-- SQLite's 00035 changes nothing). Since 00029 a submission stored was
-- queued twice, its id inserted into submission_search_queue by one
-- statement trigger and into summary_queue by another: the second
-- trigger, its table and its key cost a write on the hub's connections
-- about a tenth of its rate (cmd/hubform/BENCHMARKS.md). Both queues are
-- worked through when writing is quiet, so one row now serves both: the
-- search queue's trigger marks a submission with tallies uncounted, and
-- indexing a chunk of the queue counts its uncounted submissions in the
-- same transaction (sqldb's indexQueuedPg). A submission queued again
-- for search, its payload changed, is counted already: it is queued
-- counted, as the column's default says.
--
-- The triggers that keep the counts right on a change or a delete
-- (00029) read the queue as before. The delete's now runs inside the
-- search queue's own delete trigger, before that trigger takes the rows
-- off the queue: two triggers of one event run in the order of their
-- names, which would have the queue emptied first.

-- +goose Up
ALTER TABLE submission_search_queue ADD COLUMN uncounted BOOLEAN NOT NULL DEFAULT FALSE;
INSERT INTO submission_search_queue (id, uncounted) SELECT id, TRUE FROM summary_queue
    ON CONFLICT (id) DO UPDATE SET uncounted = TRUE;

DROP TRIGGER summary_queue_insert ON submissions;
DROP FUNCTION summary_queue_add();
DROP TRIGGER summary_counts_delete ON submissions;
DROP FUNCTION summary_counts_delete();
DROP TABLE summary_queue;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_search_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO submission_search_queue (id, uncounted) SELECT id, tallies IS NOT NULL FROM inserted;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_search_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_counts AS c (site, form, day, field, answer, slot, n, total)
    SELECT o.site, o.form, o.created_at / 86400000, t->>0, t->>1, pg_backend_pid() % 8, -COUNT(*), -SUM((t->>2)::double precision)
    FROM deleted o CROSS JOIN jsonb_array_elements(o.tallies::jsonb) t
    WHERE o.tallies IS NOT NULL AND NOT o.spam AND o.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM submission_search_queue q WHERE q.id = o.id AND q.uncounted)
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = c.n + EXCLUDED.n, total = c.total + EXCLUDED.total;
    DELETE FROM submission_search_queue WHERE id IN (SELECT id FROM deleted);
    DELETE FROM submission_search WHERE id IN (SELECT id FROM deleted);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION summary_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_counts AS c (site, form, day, field, answer, slot, n, total)
    SELECT site, form, day, field, answer, pg_backend_pid() % 8, SUM(n), SUM(total) FROM (
        SELECT o.site, o.form, o.created_at / 86400000 AS day, t->>0 AS field, t->>1 AS answer, -1 AS n, -(t->>2)::double precision AS total
        FROM old_rows o CROSS JOIN jsonb_array_elements(o.tallies::jsonb) t
        WHERE o.tallies IS NOT NULL AND NOT o.spam AND o.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM submission_search_queue q WHERE q.id = o.id AND q.uncounted)
        UNION ALL
        SELECT w.site, w.form, w.created_at / 86400000, t->>0, t->>1, 1, (t->>2)::double precision
        FROM new_rows w JOIN old_rows p ON p.id = w.id AND p.tallies IS NOT NULL
            CROSS JOIN jsonb_array_elements(w.tallies::jsonb) t
        WHERE w.tallies IS NOT NULL AND NOT w.spam AND w.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM submission_search_queue q WHERE q.id = w.id AND q.uncounted)
    ) changes GROUP BY site, form, day, field, answer HAVING SUM(n) <> 0 OR SUM(total) <> 0
    ORDER BY site, form, day, field, answer
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = c.n + EXCLUDED.n, total = c.total + EXCLUDED.total;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
CREATE TABLE summary_queue (id TEXT PRIMARY KEY);
INSERT INTO summary_queue (id) SELECT id FROM submission_search_queue WHERE uncounted;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_search_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO submission_search_queue (id) SELECT id FROM inserted;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_search_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM submission_search_queue WHERE id IN (SELECT id FROM deleted);
    DELETE FROM submission_search WHERE id IN (SELECT id FROM deleted);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION summary_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- +goose StatementBegin
CREATE FUNCTION summary_queue_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO summary_queue (id) SELECT id FROM new_rows WHERE tallies IS NOT NULL;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION summary_queue_add();
CREATE TRIGGER summary_counts_delete AFTER DELETE ON submissions
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION summary_counts_delete();
ALTER TABLE submission_search_queue DROP COLUMN uncounted;
