-- Workspaces: many owners on one hub. A workspace owns sites, and so their
-- forms, submissions, files and deliveries; its members have one role
-- each. API tokens act for one workspace, or for the hub's metrics alone.
-- What the hub held before moves into the workspace "default", whose
-- admins are the users there were.

-- +goose Up
CREATE TABLE workspaces (
    name       TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

CREATE TABLE workspace_members (
    workspace  TEXT NOT NULL REFERENCES workspaces (name) ON DELETE CASCADE,
    email      TEXT NOT NULL REFERENCES users (email) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (workspace, email)
);

-- A user's workspaces are looked up at every console request.
CREATE INDEX workspace_members_email ON workspace_members (email);

-- A site belongs to exactly one workspace; a site no row names belongs to
-- none, and the first workspace to create a form in it claims it.
CREATE TABLE sites (
    site       TEXT PRIMARY KEY,
    workspace  TEXT NOT NULL REFERENCES workspaces (name),
    created_at BIGINT NOT NULL
);

CREATE INDEX sites_workspace ON sites (workspace);

-- workspace is NULL for a hub-wide token, whose scope is "metrics". It
-- names no foreign key, so that SQLite can drop it again on the way down.
ALTER TABLE api_tokens ADD COLUMN workspace TEXT;
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'all';

INSERT INTO workspaces (name, created_at)
    VALUES ('default', COALESCE((SELECT MIN(created_at) FROM users), 0));
INSERT INTO workspace_members (workspace, email, role, created_at)
    SELECT 'default', email, 'admin', created_at FROM users;
INSERT INTO sites (site, workspace, created_at)
    SELECT site, 'default', MIN(created_at) FROM (
        SELECT site, created_at FROM forms
        UNION ALL SELECT site, created_at FROM submissions
    ) known GROUP BY site;
UPDATE api_tokens SET workspace = 'default';

-- +goose Down
ALTER TABLE api_tokens DROP COLUMN scope;
ALTER TABLE api_tokens DROP COLUMN workspace;
DROP INDEX sites_workspace;
DROP TABLE sites;
DROP INDEX workspace_members_email;
DROP TABLE workspace_members;
DROP TABLE workspaces;
