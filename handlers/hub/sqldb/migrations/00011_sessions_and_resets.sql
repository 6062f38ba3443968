-- Each console session of a user, so that they can see their sessions and
-- end them, and a password's change or reset ends the others; and the
-- links of password resets, kept as hashes, each working once.

-- +goose Up
CREATE TABLE user_sessions (
    -- id is the session's own random id, kept in its data.
    id           TEXT PRIMARY KEY,
    email        TEXT NOT NULL REFERENCES users (email) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    client_addr  TEXT NOT NULL,
    user_agent   TEXT NOT NULL
);

CREATE INDEX user_sessions_email ON user_sessions (email);

CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    email      TEXT NOT NULL REFERENCES users (email) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);

-- +goose Down
DROP TABLE password_resets;
DROP INDEX user_sessions_email;
DROP TABLE user_sessions;
