-- Sign-ups of a hub open to them: a link sent to the address, kept as its
-- hash, that works once until it expires, and creates the user and a
-- workspace of their own.

-- +goose Up
CREATE TABLE signups (
    token_hash TEXT PRIMARY KEY,
    email      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);

-- +goose Down
DROP TABLE signups;
