-- Mail the hub sends on a workspace's behalf.
--
-- mail_recipients holds the addresses a workspace's forms list to notify
-- that are not its members: asked_at is when the hub mailed the address a
-- link asking it to confirm (once per workspace and address), token_hash
-- the SHA-256 of that link's token until it is used or expires_at passes,
-- confirmed_at when the address confirmed (0: not yet). The address is
-- kept as the hash sqldb.AddressKey makes of it.
--
-- workspace_mail counts the e-mails sent on a workspace's behalf on one
-- UTC day (days since the Unix epoch), within its quota_mail_per_day
-- (0: the hub's default).

-- +goose Up
CREATE TABLE mail_recipients (
    workspace    TEXT NOT NULL,
    address      TEXT NOT NULL,
    asked_at     BIGINT NOT NULL,
    token_hash   TEXT,
    expires_at   BIGINT NOT NULL DEFAULT 0,
    confirmed_at BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace, address)
);
CREATE UNIQUE INDEX mail_recipients_token ON mail_recipients (token_hash);

CREATE TABLE workspace_mail (
    workspace TEXT NOT NULL,
    day       BIGINT NOT NULL,
    count     BIGINT NOT NULL,
    PRIMARY KEY (workspace, day)
);

ALTER TABLE workspaces ADD COLUMN quota_mail_per_day BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE workspaces DROP COLUMN quota_mail_per_day;
DROP TABLE workspace_mail;
DROP INDEX mail_recipients_token;
DROP TABLE mail_recipients;
