-- What owners expect of a form backend: spam flagged by the hub with its
-- reasons, deliveries held back until an owner releases a flagged
-- submission, the locale a visitor used, values that may be sent once per
-- form, and a budget of confirmation e-mails per address.

-- +goose Up
-- spam_reasons is the JSON array of why the hub flagged a submission, NULL
-- when it did not. held is set while a flagged submission's deliveries
-- have not been made: "not spam" makes them, once.
ALTER TABLE submissions ADD COLUMN spam_reasons TEXT;
ALTER TABLE submissions ADD COLUMN held BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE submissions ADD COLUMN locale TEXT NOT NULL DEFAULT '';

-- One row per value of a form's unique field: the primary key refuses a
-- second submission with it, on every hub of the database. Values are
-- normalised before (e-mail addresses lower-cased).
CREATE TABLE unique_values (
    site          TEXT NOT NULL,
    form          TEXT NOT NULL,
    field         TEXT NOT NULL,
    value         TEXT NOT NULL,
    submission_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    PRIMARY KEY (site, form, field, value)
);
CREATE INDEX unique_values_submission ON unique_values (submission_id);

-- A form's row is locked by the transaction that stores a submission of a
-- form with a limit, so that the count it reads is not raced.
CREATE TABLE form_locks (
    site TEXT NOT NULL,
    form TEXT NOT NULL,
    PRIMARY KEY (site, form)
);

-- Confirmation e-mails sent to one address for one form on one UTC day
-- (day is days since the Unix epoch); the address is kept as a hash.
CREATE TABLE autoresponses (
    site    TEXT NOT NULL,
    form    TEXT NOT NULL,
    address TEXT NOT NULL,
    day     BIGINT NOT NULL,
    count   BIGINT NOT NULL,
    PRIMARY KEY (site, form, address, day)
);

-- +goose Down
DROP TABLE autoresponses;
DROP TABLE form_locks;
DROP INDEX unique_values_submission;
DROP TABLE unique_values;
ALTER TABLE submissions DROP COLUMN locale;
ALTER TABLE submissions DROP COLUMN held;
ALTER TABLE submissions DROP COLUMN spam_reasons;
