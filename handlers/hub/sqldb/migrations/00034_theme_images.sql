-- The pictures of themes, a form's logo and cover and a brand's, which
-- owners upload to the hub's file storage: the object key, the workspace
-- that uploaded it, and its type and size, as the hub checked them.

-- +goose Up
CREATE TABLE theme_images (
    key          TEXT PRIMARY KEY,
    workspace    TEXT NOT NULL REFERENCES workspaces (name) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    created_at   BIGINT NOT NULL
);

CREATE INDEX theme_images_workspace ON theme_images (workspace);

-- +goose Down
DROP TABLE theme_images;
