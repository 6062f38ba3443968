-- The columns each user chose for each form's table of submissions
-- (PostgreSQL's version; SQLite has its own 00028, the same). hidden
-- is the names of the columns the user hid, as a JSON array of strings:
-- a column the form gains later is shown until hidden. A choice is the
-- user's own, kept with their account so that it follows them from one
-- browser to another; it goes with the user, and with their membership
-- of the workspace that owns the form's site (sqldb.DB.RemoveMember).
-- Forms are never deleted, and may be files the database does not hold,
-- so site and form name no foreign key.

-- +goose Up
CREATE TABLE column_choices (
    email      TEXT NOT NULL REFERENCES users (email) ON DELETE CASCADE,
    site       TEXT NOT NULL,
    form       TEXT NOT NULL,
    hidden     TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (email, site, form)
);

-- +goose Down
DROP TABLE column_choices;
