-- The hub's owners: users who sign in to the console, their sessions, and
-- the API tokens of the admin API. Passwords and tokens are kept only as
-- hashes; a session is kept under the hash of its cookie's token.

-- +goose Up
CREATE TABLE users (
    -- email is in lower case (accounts.NormalizeEmail).
    email         TEXT PRIMARY KEY,
    -- password_hash is argon2id in PHC string format.
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    -- data is the session's encoded values, in base64.
    data       TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Pruning deletes the expired sessions.
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE api_tokens (
    name         TEXT PRIMARY KEY,
    -- hash is the hex SHA-256 of the token, which is looked up by it.
    hash         TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);

-- +goose Down
DROP TABLE api_tokens;
DROP INDEX sessions_expires_at;
DROP TABLE sessions;
DROP TABLE users;
