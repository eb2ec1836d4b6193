-- Lottery activities with coupon prizes, their draws and coupons, and NFC tap-to-post tags.
CREATE TABLE activities (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    -- The public page's key (/t/a/<pkey>): random, so activities cannot be enumerated.
    pkey TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    who TEXT NOT NULL,
    per_person BIGINT NOT NULL,
    per_day BIGINT NOT NULL,
    color TEXT NOT NULL,
    rules_text TEXT NOT NULL DEFAULT '',
    deleted_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX activities_merchant ON activities(merchant_id, deleted_at, id);

CREATE TABLE activity_prizes (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    activity_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    odds_bp BIGINT NOT NULL,
    stock BIGINT NOT NULL,
    -- Coupons issued so far; a draw takes one only while issued < stock.
    issued BIGINT NOT NULL DEFAULT 0,
    per_person BIGINT NOT NULL,
    per_day BIGINT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    valid_days BIGINT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0,
    removed BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX activity_prizes_activity ON activity_prizes(activity_id, sort);

-- Draws a person (a device) has used, per activity or prize (`scope`), over the whole activity
-- (`day` = '') and per China day: a draw raises its counters only while they are under the limit.
CREATE TABLE activity_quota (
    scope TEXT NOT NULL,
    person TEXT NOT NULL,
    day TEXT NOT NULL,
    used BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, person, day)
);

CREATE TABLE activity_draws (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    activity_id BIGINT NOT NULL,
    person TEXT NOT NULL,
    source TEXT NOT NULL,
    tag_id BIGINT NOT NULL DEFAULT 0,
    prize_id BIGINT NOT NULL DEFAULT 0,
    prize_name TEXT NOT NULL,
    won BIGINT NOT NULL DEFAULT 0,
    coupon_code TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX activity_draws_merchant ON activity_draws(merchant_id, activity_id, id);
CREATE INDEX activity_draws_tag ON activity_draws(tag_id, created_at);

CREATE TABLE activity_coupons (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    activity_id BIGINT NOT NULL,
    prize_id BIGINT NOT NULL,
    -- Every coupon has its draw; one draw issues at most one coupon.
    draw_id BIGINT NOT NULL UNIQUE,
    code TEXT NOT NULL UNIQUE,
    person TEXT NOT NULL,
    tag_id BIGINT NOT NULL DEFAULT 0,
    issued_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    redeemed_at BIGINT NOT NULL DEFAULT 0,
    redeemed_by BIGINT NOT NULL DEFAULT 0,
    redeemed_by_name TEXT NOT NULL DEFAULT ''
);
CREATE INDEX activity_coupons_merchant ON activity_coupons(merchant_id, activity_id, id);
CREATE INDEX activity_coupons_tag ON activity_coupons(tag_id, redeemed_at);

CREATE TABLE nfc_tags (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    -- The public id in /t/<code>, written into the tag or printed as a QR code.
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    platform TEXT NOT NULL,
    pool_kind TEXT NOT NULL,
    pool_id BIGINT NOT NULL,
    activity_id BIGINT NOT NULL DEFAULT 0,
    topics TEXT NOT NULL DEFAULT '[]',
    enabled BIGINT NOT NULL DEFAULT 1,
    deleted_at BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX nfc_tags_merchant ON nfc_tags(merchant_id, deleted_at, id);

CREATE TABLE nfc_titles (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    tag_id BIGINT NOT NULL,
    title TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX nfc_titles_tag ON nfc_titles(tag_id, id);

-- A video handed out by a tap. A merchant's video goes to one tap only, ever.
CREATE TABLE nfc_taps (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    tag_id BIGINT NOT NULL,
    device TEXT NOT NULL,
    video_key TEXT NOT NULL,
    title TEXT NOT NULL,
    share_id TEXT NOT NULL DEFAULT '',
    schema_url TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'handed',
    item_id TEXT NOT NULL DEFAULT '',
    -- The draw this post unlocked and used (0: not drawn yet).
    draw_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    posted_at BIGINT NOT NULL DEFAULT 0,
    UNIQUE (merchant_id, video_key)
);
CREATE INDEX nfc_taps_device ON nfc_taps(tag_id, device, id);
CREATE INDEX nfc_taps_share ON nfc_taps(share_id);

-- Page views of a tag per China day (the "taps" figure); `day` counts days since 1970-01-01 in UTC+8.
CREATE TABLE nfc_tag_days (
    tag_id BIGINT NOT NULL,
    day BIGINT NOT NULL,
    taps BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tag_id, day)
);
