-- Private messages and new-lead notifications (issue 16): the customer's name on a message (the
-- conversation list shows it), quick replies, the WeChat official account that notifies staff of new
-- leads (per merchant), staff openids, and one notice per lead and assignee.
ALTER TABLE eng_messages ADD COLUMN customer_name TEXT NOT NULL DEFAULT '';

CREATE TABLE eng_quick_replies (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    text TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX eng_quick_replies_merchant ON eng_quick_replies(merchant_id, sort, id);

CREATE TABLE wx_configs (
    merchant_id BIGINT PRIMARY KEY REFERENCES merchants(id),
    app_id TEXT NOT NULL,
    -- Sealed (store::secrets).
    app_secret TEXT NOT NULL,
    template_id TEXT NOT NULL,
    enabled BIGINT NOT NULL DEFAULT 1,
    updated_at BIGINT NOT NULL
);

-- A staff member's openid under the merchant's official account.
CREATE TABLE wx_bindings (
    user_id BIGINT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    openid TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A new lead told to its assignee: in the console (SSE, by id) and through WeChat (once).
CREATE TABLE eng_notices (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    user_id BIGINT NOT NULL,
    lead_id BIGINT NOT NULL,
    -- pending | sent | failed | off (no official account configured or no openid bound).
    wx_state TEXT NOT NULL DEFAULT 'pending',
    -- A message key with args (domain::i18n::localize_reason) or the platform's words.
    wx_reason TEXT NOT NULL DEFAULT '',
    wx_msgid TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    CONSTRAINT eng_notices_lead UNIQUE (lead_id, user_id)
);
CREATE INDEX eng_notices_user ON eng_notices(user_id, id);

-- The scope the person consented to at authorization (DY: `im.direct_message` lets the account send
-- private messages); '' for accounts authorized before it was kept.
ALTER TABLE matrix_accounts ADD COLUMN scope TEXT NOT NULL DEFAULT '';
