-- The inbox's search at scale (PostgreSQL's version; SQLite has its own
-- 00016). A search is LOWER(payload) LIKE '%term%', as before; a trigram
-- index serves it for terms of 3 characters or more, with the same
-- results. pg_trgm is a trusted extension (PostgreSQL 13 and later): the
-- database's owner may create it without being a superuser.
--
-- This version also built pg_trgm's GIN index on LOWER(payload), over
-- every submission, while the hub waited. 00020 replaced that index with
-- one fed from a queue, so a database that comes here now builds none.

-- +goose Up
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- +goose Down
-- The extension stays: other schemas of the database may use it.
DROP INDEX IF EXISTS submissions_payload_trgm;
