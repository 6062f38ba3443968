-- Request counters shared by every hub on the database: one row per client
-- and fixed window, so several processes enforce one budget.

-- +goose Up
CREATE TABLE rate_limits (
    client       TEXT NOT NULL,
    -- window_ms is the window's length and window_start its start, both
    -- in milliseconds: limits with different windows keep apart.
    window_ms    BIGINT NOT NULL,
    window_start BIGINT NOT NULL,
    count        BIGINT NOT NULL,
    PRIMARY KEY (client, window_ms, window_start)
);

-- Pruning deletes the windows that have ended.
CREATE INDEX rate_limits_window_end ON rate_limits ((window_start + window_ms));

-- +goose Down
DROP TABLE rate_limits;
