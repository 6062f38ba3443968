-- PostgreSQL's 00035 has the summary's queue share the search queue's
-- row. SQLite's summary queue is an insert of a rowid by a row trigger,
-- which costs its writes little (cmd/hubform/BENCHMARKS.md), and SQLite
-- may keep no search index (sqldb.NoSearchIndex), whose queue would then
-- never be worked through: nothing changes here.

-- +goose Up

-- +goose Down
