-- Submissions deleted from the console wait a grace period before they
-- go (SQLite's version; PostgreSQL has its own 00027). deleted_at is when
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

DROP TRIGGER submission_counts_delete;
DROP TRIGGER submission_counts_update;

-- +goose StatementBegin
CREATE TRIGGER submission_counts_delete AFTER DELETE ON submissions WHEN OLD.deleted_at IS NULL BEGIN
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    VALUES (OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, 0, -1)
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submission_counts_update AFTER UPDATE OF site, form, created_at, spam, deleted_at ON submissions
WHEN OLD.spam IS NOT NEW.spam OR OLD.site IS NOT NEW.site OR OLD.form IS NOT NEW.form OR OLD.created_at IS NOT NEW.created_at
    OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL)
BEGIN
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    SELECT OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, 0, -1 WHERE OLD.deleted_at IS NULL
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    SELECT NEW.site, NEW.form, NEW.created_at / 900000, NEW.spam, 0, 1 WHERE NEW.deleted_at IS NULL
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
END;
-- +goose StatementEnd

-- +goose Down
-- The submissions waiting are restored: they are counted again.
UPDATE submissions SET deleted_at = NULL WHERE deleted_at IS NOT NULL;
DROP INDEX submissions_site_form_created_at_id;
CREATE INDEX submissions_site_form_created_at_id ON submissions (site, form, created_at, id, spam);
DROP TRIGGER submission_counts_update;
DROP TRIGGER submission_counts_delete;

-- +goose StatementBegin
CREATE TRIGGER submission_counts_delete AFTER DELETE ON submissions BEGIN
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    VALUES (OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, 0, -1)
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER submission_counts_update AFTER UPDATE OF site, form, created_at, spam ON submissions
WHEN OLD.spam IS NOT NEW.spam OR OLD.site IS NOT NEW.site OR OLD.form IS NOT NEW.form OR OLD.created_at IS NOT NEW.created_at
BEGIN
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    VALUES (OLD.site, OLD.form, OLD.created_at / 900000, OLD.spam, 0, -1)
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    VALUES (NEW.site, NEW.form, NEW.created_at / 900000, NEW.spam, 0, 1)
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
END;
-- +goose StatementEnd

DROP INDEX submissions_deleted_at;
ALTER TABLE submissions DROP COLUMN deleted_at;
