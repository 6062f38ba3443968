-- A form's draft: the newest version while it was never published.
--
-- Saving from the console overwrites the draft instead of adding a
-- version; once a version is published it is sealed, and the next save
-- starts a new draft. sealed_version is the newest version ever published:
-- versions up to it never change again, so the hubs may keep them parsed.
-- revision counts every save of the form, an overwrite of the draft as a
-- new version: an editor's page carries the revision it was built from,
-- and a save or a publish from an older page is refused. saved_at and
-- saved_by are the version's last save (created_at and created_by its
-- first).

-- +goose Up
ALTER TABLE forms ADD COLUMN sealed_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE forms ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
UPDATE forms SET sealed_version = COALESCE(live_version, 0), revision = last_version;
ALTER TABLE form_versions ADD COLUMN saved_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE form_versions ADD COLUMN saved_by TEXT NOT NULL DEFAULT '';
UPDATE form_versions SET saved_at = created_at, saved_by = created_by;

-- +goose Down
ALTER TABLE form_versions DROP COLUMN saved_by;
ALTER TABLE form_versions DROP COLUMN saved_at;
ALTER TABLE forms DROP COLUMN revision;
ALTER TABLE forms DROP COLUMN sealed_version;
