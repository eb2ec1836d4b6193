-- Lottery activities with coupon prizes, their draws and coupons, and NFC tap-to-post tags.
CREATE TABLE activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    -- The public page's key (/t/a/<pkey>): random, so activities cannot be enumerated.
    pkey TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    who TEXT NOT NULL,
    per_person INTEGER NOT NULL,
    per_day INTEGER NOT NULL,
    color TEXT NOT NULL,
    rules_text TEXT NOT NULL DEFAULT '',
    deleted_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX activities_merchant ON activities(merchant_id, deleted_at, id);

CREATE TABLE activity_prizes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    activity_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    odds_bp INTEGER NOT NULL,
    stock INTEGER NOT NULL,
    -- Coupons issued so far; a draw takes one only while issued < stock.
    issued INTEGER NOT NULL DEFAULT 0,
    per_person INTEGER NOT NULL,
    per_day INTEGER NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    valid_days INTEGER NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    removed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX activity_prizes_activity ON activity_prizes(activity_id, sort);

-- Draws a person (a device) has used, per activity or prize (`scope`), over the whole activity
-- (`day` = '') and per China day: a draw raises its counters only while they are under the limit.
CREATE TABLE activity_quota (
    scope TEXT NOT NULL,
    person TEXT NOT NULL,
    day TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, person, day)
);

CREATE TABLE activity_draws (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    activity_id INTEGER NOT NULL,
    person TEXT NOT NULL,
    source TEXT NOT NULL,
    tag_id INTEGER NOT NULL DEFAULT 0,
    prize_id INTEGER NOT NULL DEFAULT 0,
    prize_name TEXT NOT NULL,
    won INTEGER NOT NULL DEFAULT 0,
    coupon_code TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX activity_draws_merchant ON activity_draws(merchant_id, activity_id, id);
CREATE INDEX activity_draws_tag ON activity_draws(tag_id, created_at);

CREATE TABLE activity_coupons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    activity_id INTEGER NOT NULL,
    prize_id INTEGER NOT NULL,
    -- Every coupon has its draw; one draw issues at most one coupon.
    draw_id INTEGER NOT NULL UNIQUE,
    code TEXT NOT NULL UNIQUE,
    person TEXT NOT NULL,
    tag_id INTEGER NOT NULL DEFAULT 0,
    issued_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    redeemed_at INTEGER NOT NULL DEFAULT 0,
    redeemed_by INTEGER NOT NULL DEFAULT 0,
    redeemed_by_name TEXT NOT NULL DEFAULT ''
);
CREATE INDEX activity_coupons_merchant ON activity_coupons(merchant_id, activity_id, id);
CREATE INDEX activity_coupons_tag ON activity_coupons(tag_id, redeemed_at);

CREATE TABLE nfc_tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    -- The public id in /t/<code>, written into the tag or printed as a QR code.
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    platform TEXT NOT NULL,
    pool_kind TEXT NOT NULL,
    pool_id INTEGER NOT NULL,
    activity_id INTEGER NOT NULL DEFAULT 0,
    topics TEXT NOT NULL DEFAULT '[]',
    enabled INTEGER NOT NULL DEFAULT 1,
    deleted_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX nfc_tags_merchant ON nfc_tags(merchant_id, deleted_at, id);

CREATE TABLE nfc_titles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    tag_id INTEGER NOT NULL,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX nfc_titles_tag ON nfc_titles(tag_id, id);

-- A video handed out by a tap. A merchant's video goes to one tap only, ever.
CREATE TABLE nfc_taps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    tag_id INTEGER NOT NULL,
    device TEXT NOT NULL,
    video_key TEXT NOT NULL,
    title TEXT NOT NULL,
    share_id TEXT NOT NULL DEFAULT '',
    schema_url TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'handed',
    item_id TEXT NOT NULL DEFAULT '',
    -- The draw this post unlocked and used (0: not drawn yet).
    draw_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    posted_at INTEGER NOT NULL DEFAULT 0,
    UNIQUE (merchant_id, video_key)
);
CREATE INDEX nfc_taps_device ON nfc_taps(tag_id, device, id);
CREATE INDEX nfc_taps_share ON nfc_taps(share_id);

-- Page views of a tag per China day (the "taps" figure); `day` counts days since 1970-01-01 in UTC+8.
CREATE TABLE nfc_tag_days (
    tag_id INTEGER NOT NULL,
    day INTEGER NOT NULL,
    taps INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tag_id, day)
);
