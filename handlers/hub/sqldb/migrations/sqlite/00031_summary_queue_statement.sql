-- PostgreSQL's 00031 has its trigger queue the submissions for the
-- summary once a statement rather than once a row. SQLite's triggers run
-- once a row, and its trigger of 00029 inserts a rowid without a plan to
-- make again: nothing changes here.

-- +goose Up

-- +goose Down
