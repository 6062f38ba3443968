-- Times are Unix milliseconds (UTC) and JSON is kept as TEXT, so the same
-- schema and queries run on SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE submissions (
    id          TEXT PRIMARY KEY,
    site        TEXT NOT NULL,
    form        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    payload     TEXT NOT NULL,
    attachments TEXT NOT NULL,
    client_addr TEXT NOT NULL,
    user_agent  TEXT NOT NULL
);

-- Listing one form's submissions walks this index in id (time) order.
CREATE INDEX submissions_site_form_id ON submissions (site, form, id);

CREATE TABLE uploads (
    key           TEXT PRIMARY KEY,
    site          TEXT NOT NULL,
    form          TEXT NOT NULL,
    filename      TEXT NOT NULL,
    mime          TEXT NOT NULL,
    size          BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    uploaded_at   BIGINT,
    submission_id TEXT REFERENCES submissions (id)
);

-- The sweeper looks only at unclaimed uploads, oldest first; claimed ones
-- stay out of the index.
CREATE INDEX uploads_unclaimed_created_at ON uploads (created_at) WHERE submission_id IS NULL;

-- +goose Down
DROP TABLE uploads;
DROP TABLE submissions;
