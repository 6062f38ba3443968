-- The inbox's search at scale (PostgreSQL's version; SQLite has its own
-- 00016). A search is LOWER(payload) LIKE '%term%', as before;
-- a trigram index on LOWER(payload) serves it for terms of 3 characters or
-- more, with the same results, and PostgreSQL keeps it in step with every
-- write in the same transaction. pg_trgm is a trusted extension (PostgreSQL
-- 13 and later): the database's owner may create it without being a
-- superuser.

-- +goose Up
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX submissions_payload_trgm ON submissions USING gin (LOWER(payload) gin_trgm_ops);

-- +goose Down
-- The extension stays: other schemas of the database may use it.
DROP INDEX submissions_payload_trgm;
