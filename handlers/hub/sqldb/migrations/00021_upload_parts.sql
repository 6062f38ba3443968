-- The storage's id of an upload that goes in parts, which the sweep aborts
-- when its file was never completed; empty for an upload in one PUT.

-- +goose Up
ALTER TABLE uploads ADD COLUMN parts_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE uploads DROP COLUMN parts_id;
