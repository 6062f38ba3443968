-- A workspace's brand: the theme its forms start from (hubclient.Theme,
-- as JSON), each form's own theme winning member by member. NULL for
-- none.

-- +goose Up
ALTER TABLE workspaces ADD COLUMN brand TEXT;

-- +goose Down
ALTER TABLE workspaces DROP COLUMN brand;
