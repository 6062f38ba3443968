-- Members' daily digests (hub.Digest): a member of a workspace asks for
-- one e-mail a day of what its forms, or one of them (site and slug; both
-- empty for every form), received the day before, at an hour of their
-- time zone. next_at, in Unix milliseconds, is when it is next sent: the
-- delivery queue's sweep sends those due and moves it on a day.

-- +goose Up
CREATE TABLE digests (
    workspace TEXT NOT NULL REFERENCES workspaces (name) ON DELETE CASCADE,
    email     TEXT NOT NULL,
    site      TEXT NOT NULL,
    slug      TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    hour      INTEGER NOT NULL,
    next_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace, email, site, slug)
);

CREATE INDEX digests_next_at ON digests (next_at);

-- +goose Down
DROP TABLE digests;
