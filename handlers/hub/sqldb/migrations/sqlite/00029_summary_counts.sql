-- The counts of each form's answers, for its summary (SQLite's version;
-- PostgreSQL has its own 00029). tallies is what a submission adds to its
-- form's summary, a JSON list of [field, answer, sum] the hub computes
-- from the form as it stores the submission (hub.Tallies); NULL for the
-- submissions stored before, which the console tallies when it first
-- summarises their form (hub.Summaries.TallySubmissions), which counts them. summary_counts
-- holds, for each form, day (created_at / 86400000, in UTC), field and
-- answer, how many submissions gave the answer and the sum of their sums.
--
-- Counting a submission's dozen answers as it is stored would cost about
-- as much as storing it: a trigger only queues it in summary_queue, and
-- the DB counts the queue when writing is quiet (sqldb.DB.CountQueued); a
-- summary reads the counts and the queued submissions of its form. A
-- submission is counted while it has tallies, is neither spam nor deleted
-- and is no longer queued; triggers take it out of the counts and put it
-- back on every change of the spam mark or deleted_at, and take
-- it out when it is deleted, in the same transaction, so that every path
-- that marks, deletes, restores, purges or erases a submission keeps the
-- counts right. SQLite has one writer: every row is of slot 0.

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
) WITHOUT ROWID;

-- By the submission's rowid, as submission_search_queue: the least a
-- submission's transaction can write.
CREATE TABLE summary_queue (rowid INTEGER PRIMARY KEY);

-- +goose StatementBegin
CREATE TRIGGER summary_queue_insert AFTER INSERT ON submissions WHEN NEW.tallies IS NOT NULL BEGIN
    INSERT INTO summary_queue (rowid) VALUES (NEW.rowid);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER summary_counts_delete AFTER DELETE ON submissions WHEN OLD.tallies IS NOT NULL BEGIN
    INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total)
    SELECT OLD.site, OLD.form, OLD.created_at / 86400000, json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), 0, -1, -json_extract(t.value, '$[2]')
    FROM json_each(OLD.tallies) t
    WHERE NOT OLD.spam AND OLD.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM summary_queue WHERE rowid = OLD.rowid)
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
    DELETE FROM summary_queue WHERE rowid = OLD.rowid;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER summary_counts_update AFTER UPDATE OF site, form, created_at, spam, deleted_at ON submissions
WHEN ((OLD.tallies IS NOT NULL AND NOT OLD.spam AND OLD.deleted_at IS NULL) OR (NEW.tallies IS NOT NULL AND NOT NEW.spam AND NEW.deleted_at IS NULL))
    AND NOT EXISTS (SELECT 1 FROM summary_queue WHERE rowid = NEW.rowid)
BEGIN
    INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total)
    SELECT OLD.site, OLD.form, OLD.created_at / 86400000, json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), 0, -1, -json_extract(t.value, '$[2]')
    FROM json_each(OLD.tallies) t WHERE OLD.tallies IS NOT NULL AND NOT OLD.spam AND OLD.deleted_at IS NULL
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
    INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total)
    SELECT NEW.site, NEW.form, NEW.created_at / 86400000, json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), 0, 1, json_extract(t.value, '$[2]')
    FROM json_each(NEW.tallies) t WHERE NEW.tallies IS NOT NULL AND NOT NEW.spam AND NEW.deleted_at IS NULL
    ON CONFLICT (site, form, day, field, answer, slot) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER summary_counts_update;
DROP TRIGGER summary_counts_delete;
DROP TRIGGER summary_queue_insert;
DROP TABLE summary_queue;
DROP TABLE summary_counts;
DROP INDEX submissions_untallied;
ALTER TABLE submissions DROP COLUMN tallies;
