-- Matrix publishing: authorized platform accounts and their groups, release tasks and their planned
-- items (one row per video per account), review, platform app credentials (encrypted).
CREATE TABLE matrix_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (merchant_id, name)
);

CREATE TABLE matrix_accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    platform TEXT NOT NULL,
    open_id TEXT NOT NULL,
    nickname TEXT NOT NULL DEFAULT '',
    avatar TEXT NOT NULL DEFAULT '',
    account_type TEXT NOT NULL DEFAULT 'personal',
    group_id INTEGER NOT NULL DEFAULT 0,
    province TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    poi_id TEXT NOT NULL DEFAULT '',
    poi_name TEXT NOT NULL DEFAULT '',
    poi_address TEXT NOT NULL DEFAULT '',
    remarks TEXT NOT NULL DEFAULT '',
    -- Sealed with the secret key (store::secrets); never returned by any call.
    access_token TEXT NOT NULL DEFAULT '',
    refresh_token TEXT NOT NULL DEFAULT '',
    token_expires_at INTEGER NOT NULL DEFAULT 0,
    -- After this the account must be authorized again (DY/KS refresh expiry, session lifetime).
    auth_expires_at INTEGER NOT NULL DEFAULT 0,
    revoked INTEGER NOT NULL DEFAULT 0,
    revoked_reason TEXT NOT NULL DEFAULT '',
    sandbox INTEGER NOT NULL DEFAULT 0,
    videos INTEGER NOT NULL DEFAULT 0,
    plays INTEGER NOT NULL DEFAULT 0,
    comments INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    synced_at INTEGER NOT NULL DEFAULT 0,
    -- A publish just happened: read the statistics again on the next dispatch.
    sync_requested INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (merchant_id, platform, open_id)
);
CREATE INDEX matrix_accounts_refresh ON matrix_accounts(revoked, token_expires_at);

-- OAuth `state` values and QR logins in flight: single use, short-lived.
CREATE TABLE matrix_auth_states (
    state TEXT PRIMARY KEY,
    merchant_id INTEGER NOT NULL,
    platform TEXT NOT NULL,
    group_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    used_at INTEGER
);

CREATE TABLE matrix_tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    platform TEXT NOT NULL,
    config TEXT NOT NULL DEFAULT '{}',
    time_mode TEXT NOT NULL,
    start_date TEXT NOT NULL,
    days INTEGER NOT NULL,
    daily_quantity INTEGER NOT NULL,
    review_state TEXT NOT NULL DEFAULT 'reviewing',
    review_reason TEXT NOT NULL DEFAULT '',
    review_due_at INTEGER NOT NULL,
    reviewed_at INTEGER,
    seed INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX matrix_tasks_merchant ON matrix_tasks(merchant_id, deleted);
CREATE INDEX matrix_tasks_review ON matrix_tasks(review_state, created_at);

CREATE TABLE matrix_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    task_id INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    platform TEXT NOT NULL,
    -- 'v:<clip variant id>' or 'm:<material id>': a video goes to one account only, ever.
    video_key TEXT NOT NULL,
    video_name TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL,
    comments TEXT NOT NULL DEFAULT '[]',
    scheduled_at INTEGER NOT NULL,
    review_state TEXT NOT NULL DEFAULT 'reviewing',
    state TEXT NOT NULL DEFAULT 'to_release',
    error_zh TEXT NOT NULL DEFAULT '',
    error_en TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    job_id INTEGER NOT NULL DEFAULT 0,
    remote_video_id TEXT NOT NULL DEFAULT '',
    -- Set (and committed) just before create is sent: after a crash the worker asks the platform
    -- whether the post exists before sending again.
    create_started_at INTEGER,
    item_id TEXT NOT NULL DEFAULT '',
    share_url TEXT NOT NULL DEFAULT '',
    published_at INTEGER,
    verified_at INTEGER,
    released_at INTEGER,
    review_check_at INTEGER,
    review_checks INTEGER NOT NULL DEFAULT 0,
    comments_sent INTEGER NOT NULL DEFAULT 0,
    plays INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    comment_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (merchant_id, video_key)
);
CREATE INDEX matrix_items_due ON matrix_items(state, review_state, scheduled_at);
CREATE INDEX matrix_items_task ON matrix_items(task_id);
CREATE INDEX matrix_items_account ON matrix_items(account_id, state, scheduled_at);
CREATE INDEX matrix_items_busy ON matrix_items(state, job_id);
CREATE INDEX matrix_items_minute ON matrix_items(merchant_id, scheduled_at);

CREATE TABLE matrix_aite_users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    platform TEXT NOT NULL,
    nickname TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (merchant_id, platform, nickname)
);

CREATE TABLE platform_apps (
    platform TEXT PRIMARY KEY,
    client_key TEXT NOT NULL,
    client_secret TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Platform webhooks arrive more than once: remember what was handled.
CREATE TABLE platform_webhooks (
    log_id TEXT PRIMARY KEY,
    event TEXT NOT NULL,
    received_at INTEGER NOT NULL
);

-- Douyin H5 shares (tap-to-post): a signed link a customer opens to post one of our videos from
-- their own account; the create_video webhook names the share and the resulting work.
CREATE TABLE matrix_shares (
    share_id TEXT PRIMARY KEY,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    video_key TEXT NOT NULL,
    title TEXT NOT NULL,
    item_id TEXT NOT NULL DEFAULT '',
    open_id TEXT NOT NULL DEFAULT '',
    published_at INTEGER,
    created_at INTEGER NOT NULL
);
