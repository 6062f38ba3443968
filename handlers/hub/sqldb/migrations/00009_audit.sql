-- The audit log: who did what, when, from which address, in which
-- workspace. Events name people, tokens and forms by name and reference no
-- row, so that they outlive what they name.

-- +goose Up
CREATE TABLE audit_events (
    -- id sorts in time order (sqldb.eventID).
    id          TEXT PRIMARY KEY,
    -- workspace is NULL for an event of the hub's own, such as a failed
    -- sign-in with an address no user has.
    workspace   TEXT,
    at          BIGINT NOT NULL,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    target      TEXT NOT NULL,
    client_addr TEXT NOT NULL,
    detail      TEXT NOT NULL
);

-- A workspace's log is read newest first, a page at a time.
CREATE INDEX audit_events_workspace_id ON audit_events (workspace, id);

-- +goose Down
DROP INDEX audit_events_workspace_id;
DROP TABLE audit_events;
