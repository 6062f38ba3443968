-- The inbox's spam view and dates at scale. The spam view walks a form's
-- spam alone, newest first, in an index of it alone. Dates read a page's
-- ids from the index of creation times without reading the submissions:
-- it holds the id, to sort by, and the spam mark, to filter by, so the
-- index of 00007 is replaced by a wider one, which retention also walks
-- in its order (created_at, id).

-- +goose Up
CREATE INDEX submissions_spam ON submissions (site, form, id) WHERE spam;
DROP INDEX submissions_site_form_created_at;
CREATE INDEX submissions_site_form_created_at_id ON submissions (site, form, created_at, id, spam);

-- +goose Down
DROP INDEX submissions_site_form_created_at_id;
CREATE INDEX submissions_site_form_created_at ON submissions (site, form, created_at);
DROP INDEX submissions_spam;
