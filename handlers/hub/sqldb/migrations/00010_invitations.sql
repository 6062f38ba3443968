-- Invitations to a workspace, sent by e-mail as a link. The link's token
-- is kept only as its hash; a link works once, until it expires.

-- +goose Up
CREATE TABLE invitations (
    token_hash  TEXT PRIMARY KEY,
    workspace   TEXT NOT NULL REFERENCES workspaces (name) ON DELETE CASCADE,
    email       TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    invited_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    accepted_at BIGINT
);

-- +goose Down
DROP TABLE invitations;
