-- Reports (issue 18): a work's shares as the platform reports them, beside its plays, likes and comments.
ALTER TABLE matrix_items ADD COLUMN shares BIGINT NOT NULL DEFAULT 0;
-- The video rankings read one merchant's items by publishing time.
CREATE INDEX matrix_items_merchant_published ON matrix_items(merchant_id, published_at);

-- The rollup: one row per account and China day (of the platform clock), rebuilt from that account's
-- items by the statistics sync (services::reports::rollup). posts = items published that day; failed =
-- items due that day that failed (review rejections excluded); plays..shares = the figures of the
-- videos published that day, as last read from the platform. Reports read these rows, not the items.
CREATE TABLE report_daily (
    account_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    merchant_id BIGINT NOT NULL,
    platform TEXT NOT NULL,
    posts BIGINT NOT NULL DEFAULT 0,
    failed BIGINT NOT NULL DEFAULT 0,
    plays BIGINT NOT NULL DEFAULT 0,
    likes BIGINT NOT NULL DEFAULT 0,
    comments BIGINT NOT NULL DEFAULT 0,
    shares BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
-- Covering: a month's series or account ranking reads this index only, never the table.
CREATE INDEX report_daily_merchant_day ON report_daily(merchant_id, day, platform, account_id, posts, failed, plays, likes, comments, shares);
