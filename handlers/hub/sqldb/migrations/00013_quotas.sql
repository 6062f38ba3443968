-- Quotas of workspaces, set by the hub's operator: submissions a calendar
-- month (UTC) and bytes of files stored; 0 is no limit.

-- +goose Up
ALTER TABLE workspaces ADD COLUMN quota_submissions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE workspaces ADD COLUMN quota_bytes BIGINT NOT NULL DEFAULT 0;

-- A workspace's stored bytes sum the files its submissions claimed.
CREATE INDEX uploads_site_claimed ON uploads (site) WHERE submission_id IS NOT NULL;

-- +goose Down
DROP INDEX uploads_site_claimed;
ALTER TABLE workspaces DROP COLUMN quota_bytes;
ALTER TABLE workspaces DROP COLUMN quota_submissions;
