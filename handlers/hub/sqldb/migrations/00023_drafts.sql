-- Drafts (PROTOCOL.md §10): forms half filled that the hub keeps for the
-- visitor to finish later. A draft is found by the SHA-256 of one of its
-- tokens (draft_tokens), never by a token itself, and is deleted once
-- expired (expires_at, swept oldest first) or finished by a submission.
-- payload is its JSON; attachments the JSON array of the files it holds.
-- Times are Unix milliseconds, as elsewhere.
--
-- An upload a draft holds names it in draft_id (NULL: held by none): the
-- sweep leaves it alone, as it does a claimed one, so its index of the
-- uploads it may delete leaves both out. uploads_draft_id finds the
-- uploads of a draft to release them.

-- +goose Up
CREATE TABLE drafts (
    id          TEXT PRIMARY KEY,
    site        TEXT NOT NULL,
    form        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    step        TEXT NOT NULL DEFAULT '',
    attachments TEXT NOT NULL,
    locale      TEXT NOT NULL DEFAULT '',
    email       TEXT NOT NULL DEFAULT '',
    resume_url  TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);

CREATE INDEX drafts_expires_at ON drafts (expires_at);

CREATE TABLE draft_tokens (
    hash     TEXT PRIMARY KEY,
    draft_id TEXT NOT NULL
);

CREATE INDEX draft_tokens_draft_id ON draft_tokens (draft_id);

ALTER TABLE uploads ADD COLUMN draft_id TEXT;

CREATE INDEX uploads_draft_id ON uploads (draft_id) WHERE draft_id IS NOT NULL;

DROP INDEX uploads_unclaimed_created_at;
CREATE INDEX uploads_sweepable_created_at ON uploads (created_at) WHERE submission_id IS NULL AND draft_id IS NULL;

-- +goose Down
DROP INDEX uploads_sweepable_created_at;
CREATE INDEX uploads_unclaimed_created_at ON uploads (created_at) WHERE submission_id IS NULL;
DROP INDEX uploads_draft_id;
ALTER TABLE uploads DROP COLUMN draft_id;
DROP TABLE draft_tokens;
DROP TABLE drafts;
