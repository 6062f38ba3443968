-- SQLite's 00019 gives it a search index; PostgreSQL's comes with its
-- 00020. The version is kept so that PostgreSQL's migrations count as
-- SQLite's do.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
