-- The inbox's counts at scale (SQLite's version; PostgreSQL has its own
-- 00018). submission_counts holds how many submissions of each form were
-- created in each quarter of an hour (created_at / 900000), spam apart,
-- and triggers keep it in step with every insert, delete and change of
-- the spam mark in the same transaction. A count of whole quarters sums
-- a few rows instead of reading each submission. SQLite has one writer:
-- every row is of slot 0. Rows that reach 0 stay.

-- +goose Up
CREATE TABLE submission_counts (
    site    TEXT NOT NULL,
    form    TEXT NOT NULL,
    quarter BIGINT NOT NULL,
    spam    BOOLEAN NOT NULL,
    slot    INTEGER NOT NULL,
    n       BIGINT NOT NULL,
    PRIMARY KEY (site, form, quarter, spam, slot)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER submission_counts_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
    VALUES (NEW.site, NEW.form, NEW.created_at / 900000, NEW.spam, 0, 1)
    ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = n + excluded.n;
END;
-- +goose StatementEnd

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

INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
SELECT site, form, created_at / 900000, spam, 0, COUNT(*)
FROM submissions GROUP BY site, form, created_at / 900000, spam;

-- +goose Down
DROP TRIGGER submission_counts_update;
DROP TRIGGER submission_counts_delete;
DROP TRIGGER submission_counts_insert;
DROP TABLE submission_counts;
