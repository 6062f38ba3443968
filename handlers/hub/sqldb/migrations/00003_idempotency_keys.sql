-- A submission keeps the idempotency key its client sent, for as long as the
-- submission exists; a repeated send of the same key is answered with it.

-- +goose Up
ALTER TABLE submissions ADD COLUMN idempotency_key TEXT;

-- One submission per key and form: two submits racing with one key cannot
-- both be stored. Submissions without a key stay out of the index.
CREATE UNIQUE INDEX submissions_site_form_idempotency_key
    ON submissions (site, form, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- +goose Down
DROP INDEX submissions_site_form_idempotency_key;
ALTER TABLE submissions DROP COLUMN idempotency_key;
