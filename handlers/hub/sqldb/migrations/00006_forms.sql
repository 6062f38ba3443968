-- Forms kept in the database, with versions. Every save of a form is a new
-- version, a draft; publishing points the form at one of its versions,
-- which the schema route then serves. Versions are never changed, so an
-- earlier one can be published again.

-- +goose Up
CREATE TABLE forms (
    site          TEXT NOT NULL,
    slug          TEXT NOT NULL,
    -- last_version is the newest version's number: saving increments it,
    -- which serializes concurrent saves on the form's row.
    last_version  BIGINT NOT NULL,
    -- live_version is the published version, NULL until one is.
    live_version  BIGINT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    published_at  BIGINT,
    PRIMARY KEY (site, slug)
);

CREATE TABLE form_versions (
    site       TEXT NOT NULL,
    slug       TEXT NOT NULL,
    version    BIGINT NOT NULL,
    -- body is the form file as saved: the schema plus its member "hub".
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- created_by names who saved it, such as the API token's name.
    created_by TEXT NOT NULL,
    PRIMARY KEY (site, slug, version),
    FOREIGN KEY (site, slug) REFERENCES forms (site, slug)
);

-- +goose Down
DROP TABLE form_versions;
DROP TABLE forms;
