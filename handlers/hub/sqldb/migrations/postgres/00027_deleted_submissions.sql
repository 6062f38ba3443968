-- Submissions deleted from the console wait a grace period before they
-- go (PostgreSQL's version; SQLite has its own 00027). deleted_at is when
-- an owner deleted the submission, NULL while it is not: a deleted
-- submission is left out of every read, may be restored within the
-- period, and is purged with its files after it. submission_counts counts
-- only the submissions not deleted, so the triggers move a submission out
-- of its count when it is deleted and back when it is restored, and do
-- not count it again when it is purged.

-- +goose Up
ALTER TABLE submissions ADD COLUMN deleted_at BIGINT;
CREATE INDEX submissions_deleted_at ON submissions (deleted_at) WHERE deleted_at IS NOT NULL;
-- The inbox's dates and lists read deleted_at beside the other columns
-- of this index, which keeps them index-only.
DROP INDEX submissions_site_form_created_at_id;
CREATE INDEX submissions_site_form_created_at_id ON submissions (site, form, created_at, id, spam, deleted_at);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_counts_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
        VALUES (OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, pg_backend_pid() % 8, -1)
        ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
        VALUES (NEW.site, NEW.form, NEW.created_at / 900000, NEW.spam, pg_backend_pid() % 8, 1)
        ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DROP TRIGGER submission_counts_update ON submissions;
CREATE TRIGGER submission_counts_update AFTER UPDATE OF site, form, created_at, spam, deleted_at ON submissions
    FOR EACH ROW WHEN (OLD.spam IS DISTINCT FROM NEW.spam OR OLD.site IS DISTINCT FROM NEW.site
        OR OLD.form IS DISTINCT FROM NEW.form OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR (OLD.deleted_at IS NULL) IS DISTINCT FROM (NEW.deleted_at IS NULL))
    EXECUTE FUNCTION submission_counts_step();

-- +goose Down
-- The submissions waiting are restored: they are counted again.
UPDATE submissions SET deleted_at = NULL WHERE deleted_at IS NOT NULL;
DROP INDEX submissions_site_form_created_at_id;
CREATE INDEX submissions_site_form_created_at_id ON submissions (site, form, created_at, id, spam);
DROP TRIGGER submission_counts_update ON submissions;
CREATE TRIGGER submission_counts_update AFTER UPDATE OF site, form, created_at, spam ON submissions
    FOR EACH ROW WHEN (OLD.spam IS DISTINCT FROM NEW.spam OR OLD.site IS DISTINCT FROM NEW.site
        OR OLD.form IS DISTINCT FROM NEW.form OR OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION submission_counts_step();

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION submission_counts_step() RETURNS trigger LANGUAGE plpgsql AS $$
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

DROP INDEX submissions_deleted_at;
ALTER TABLE submissions DROP COLUMN deleted_at;
