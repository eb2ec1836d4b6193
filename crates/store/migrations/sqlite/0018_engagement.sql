-- Engagement (issue 16): comments synced from the platforms, keyword auto-reply rules and their log,
-- leads with assignment, private messages.
CREATE TABLE eng_comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    account_id INTEGER NOT NULL,
    platform TEXT NOT NULL,
    item_id TEXT NOT NULL,
    item_title TEXT NOT NULL DEFAULT '',
    comment_id TEXT NOT NULL,
    user_id TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    -- Platform clock, unix ms.
    created_at INTEGER NOT NULL,
    -- '' | purchase | contact | spam (domain::engagement::Intent).
    intent TEXT NOT NULL DEFAULT '',
    -- visible | hidden | spam.
    status TEXT NOT NULL DEFAULT 'visible',
    replied INTEGER NOT NULL DEFAULT 0,
    reply_text TEXT NOT NULL DEFAULT '',
    replied_at INTEGER NOT NULL DEFAULT 0,
    -- pending | claimed | done | none | failed: the auto-reply's claim (once, ever).
    auto_state TEXT NOT NULL DEFAULT 'pending',
    synced_at INTEGER NOT NULL,
    CONSTRAINT eng_comments_comment UNIQUE (account_id, comment_id)
);
CREATE INDEX eng_comments_merchant ON eng_comments(merchant_id, created_at);
CREATE INDEX eng_comments_auto ON eng_comments(account_id, auto_state);

-- How far each work's comments were read (the newest comment time seen).
CREATE TABLE eng_cursors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    newest_at INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    CONSTRAINT eng_cursors_item UNIQUE (account_id, item_id)
);

CREATE TABLE eng_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    -- comment | message (first private messages).
    channel TEXT NOT NULL DEFAULT 'comment',
    -- exact | contains | segmented.
    match_mode TEXT NOT NULL,
    keywords TEXT NOT NULL,
    replies TEXT NOT NULL,
    account_ids TEXT NOT NULL DEFAULT '[]',
    item_ids TEXT NOT NULL DEFAULT '[]',
    start_minute INTEGER NOT NULL DEFAULT 0,
    end_minute INTEGER NOT NULL DEFAULT 1440,
    daily_cap INTEGER NOT NULL DEFAULT 100,
    min_gap_s INTEGER NOT NULL DEFAULT 30,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX eng_rules_merchant ON eng_rules(merchant_id, id);

-- Every reply sent (or refused by the platform), by hand or by a rule.
CREATE TABLE eng_replies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    account_id INTEGER NOT NULL,
    comment_row_id INTEGER NOT NULL,
    rule_id INTEGER NOT NULL DEFAULT 0,
    -- auto | manual.
    origin TEXT NOT NULL,
    content TEXT NOT NULL,
    -- sent | failed.
    result TEXT NOT NULL,
    error_code TEXT NOT NULL DEFAULT '',
    error_args TEXT NOT NULL DEFAULT '',
    platform_reply_id TEXT NOT NULL DEFAULT '',
    -- Platform clock, unix ms; `day` is its China day (caps count per day).
    created_at INTEGER NOT NULL,
    day INTEGER NOT NULL
);
CREATE INDEX eng_replies_account ON eng_replies(account_id, day, created_at);
CREATE INDEX eng_replies_merchant ON eng_replies(merchant_id, id);

CREATE TABLE eng_leads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    -- platform:user id: one lead per customer.
    customer_key TEXT NOT NULL,
    platform TEXT NOT NULL,
    account_id INTEGER NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    -- comment | message.
    source TEXT NOT NULL,
    source_id INTEGER NOT NULL,
    item_id TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    wechat TEXT NOT NULL DEFAULT '',
    intent TEXT NOT NULL DEFAULT '',
    -- new | contacted | converted | invalid.
    state TEXT NOT NULL DEFAULT 'new',
    assignee_id INTEGER NOT NULL DEFAULT 0,
    notes TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CONSTRAINT eng_leads_customer UNIQUE (merchant_id, customer_key)
);
CREATE INDEX eng_leads_assignee ON eng_leads(merchant_id, assignee_id, id);

-- Round-robin position per merchant.
CREATE TABLE eng_assign (
    merchant_id INTEGER PRIMARY KEY REFERENCES merchants(id),
    -- Leads assigned so far: the next goes to candidate number turn mod their count.
    turn INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE eng_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    account_id INTEGER NOT NULL,
    conversation_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    -- in | out.
    direction TEXT NOT NULL,
    text TEXT NOT NULL,
    msg_id TEXT NOT NULL,
    auto INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    CONSTRAINT eng_messages_msg UNIQUE (account_id, msg_id)
);
CREATE INDEX eng_messages_conversation ON eng_messages(account_id, conversation_id, id);
