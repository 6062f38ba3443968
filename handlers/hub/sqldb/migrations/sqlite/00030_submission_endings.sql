-- The ending a submission reached, as the hub decided it from the values
-- it stored (the schema's endings); NULL for none, the thank-you panel,
-- and for the submissions stored before endings existed. The funnel
-- counts a form's submissions by it over a period. (SQLite's version; PostgreSQL has its own 00030.)

-- +goose Up
ALTER TABLE submissions ADD COLUMN ending TEXT;

-- +goose Down
ALTER TABLE submissions DROP COLUMN ending;
