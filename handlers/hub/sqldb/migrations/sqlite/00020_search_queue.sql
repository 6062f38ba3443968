-- PostgreSQL's 00020 gives it the queue that SQLite's 00019 made. The
-- version is kept so that SQLite's migrations count as PostgreSQL's do.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
