-- The inbox's counts at scale (PostgreSQL's version; SQLite has its own
-- 00018). submission_counts holds how many submissions of each form were
-- created in each quarter of an hour (created_at / 900000), spam apart,
-- and triggers keep it in step with every insert, delete and change of
-- the spam mark in the same transaction. A count of whole quarters sums
-- a few rows instead of reading each submission.
--
-- A form's writers add to one of 8 slots, by their connection, so that
-- concurrent transactions do not all wait on one row's lock; a
-- transaction's rows of one quarter go to one slot, so two transactions
-- storing several do not lock slots in opposite orders. A slot's n may go
-- below 0 when another connection deletes; the sum of a quarter's slots
-- is its count. Rows that reach 0 stay.

-- +goose Up
CREATE TABLE submission_counts (
    site    TEXT NOT NULL,
    form    TEXT NOT NULL,
    quarter BIGINT NOT NULL,
    spam    BOOLEAN NOT NULL,
    slot    INTEGER NOT NULL,
    n       BIGINT NOT NULL,
    PRIMARY KEY (site, form, quarter, spam, slot)
);

-- +goose StatementBegin
CREATE FUNCTION submission_counts_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
        VALUES (OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, pg_backend_pid() % 8, -1)
        ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
        VALUES (NEW.site, NEW.form, NEW.created_at / 900000, NEW.spam, pg_backend_pid() % 8, 1)
        ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER submission_counts_insert AFTER INSERT ON submissions
    FOR EACH ROW EXECUTE FUNCTION submission_counts_step();
CREATE TRIGGER submission_counts_delete AFTER DELETE ON submissions
    FOR EACH ROW EXECUTE FUNCTION submission_counts_step();
CREATE TRIGGER submission_counts_update AFTER UPDATE OF site, form, created_at, spam ON submissions
    FOR EACH ROW WHEN (OLD.spam IS DISTINCT FROM NEW.spam OR OLD.site IS DISTINCT FROM NEW.site
        OR OLD.form IS DISTINCT FROM NEW.form OR OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION submission_counts_step();

-- The triggers exist before the submissions are counted, and creating
-- them holds writers off until the migration commits: none is missed.
INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
SELECT site, form, created_at / 900000, spam, 0, COUNT(*)
FROM submissions GROUP BY site, form, created_at / 900000, spam;

-- +goose Down
DROP TRIGGER submission_counts_update ON submissions;
DROP TRIGGER submission_counts_delete ON submissions;
DROP TRIGGER submission_counts_insert ON submissions;
DROP FUNCTION submission_counts_step();
DROP TABLE submission_counts;
