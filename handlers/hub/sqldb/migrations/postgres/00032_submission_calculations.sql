-- The values of the form's calculations for a submission, as the hub
-- worked them out from the values it stored: a JSON object by the
-- calculations' names, numbers, texts, booleans or null. NULL for a form
-- without calculations and for the submissions stored before they
-- existed. (PostgreSQL's version; SQLite has its own 00032.)

-- +goose Up
ALTER TABLE submissions ADD COLUMN calculations TEXT;

-- +goose Down
ALTER TABLE submissions DROP COLUMN calculations;
