-- The console's inbox: each submission records the form version it was
-- validated against (NULL for a form of the forms directory, and for the
-- submissions stored before), and whether an owner marked it as spam.

-- +goose Up
ALTER TABLE submissions ADD COLUMN form_version BIGINT;
ALTER TABLE submissions ADD COLUMN spam BOOLEAN NOT NULL DEFAULT FALSE;

-- Dates filter an inbox and retention deletes by creation time, per form.
CREATE INDEX submissions_site_form_created_at ON submissions (site, form, created_at);

-- +goose Down
DROP INDEX submissions_site_form_created_at;
ALTER TABLE submissions DROP COLUMN spam;
ALTER TABLE submissions DROP COLUMN form_version;
