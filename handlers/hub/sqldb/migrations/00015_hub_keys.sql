-- Keys every hub of the database signs with, made by the first hub that
-- needs one: the time stamps of the forms' pages, which a visitor's post
-- may bring to another hub than the one that showed the page.

-- +goose Up
CREATE TABLE hub_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE hub_keys;
