-- A form's funnel (package funnel): how many of its views, starts and
-- steps reached were counted on each UTC day. day is the Unix
-- milliseconds of the day's midnight, as times are stored; step names the
-- step reached for the event "step" and is empty for the others. Counts
-- only: nothing of a visitor. Hubs add to a row with one upsert each, in
-- batches (sqldb.DB.AddFunnelCounts).

-- +goose Up
CREATE TABLE funnel_counts (
    site  TEXT NOT NULL,
    form  TEXT NOT NULL,
    day   BIGINT NOT NULL,
    event TEXT NOT NULL,
    step  TEXT NOT NULL DEFAULT '',
    n     BIGINT NOT NULL,
    PRIMARY KEY (site, form, day, event, step)
);

-- +goose Down
DROP TABLE funnel_counts;
