-- Binding a staff member's WeChat by QR code: the official account's server Token (its
-- "服务器配置", sealed like the AppSecret), with which WeChat signs the scan events it pushes.
ALTER TABLE wx_configs ADD COLUMN server_token TEXT NOT NULL DEFAULT '';

-- One QR code shown to bind a staff member: its scene (random, the key WeChat pushes back), whom it
-- binds, until when, and the openid that scanned it (once: a replayed push binds nothing).
CREATE TABLE wx_bind_codes (
    scene TEXT PRIMARY KEY,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    user_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    openid TEXT NOT NULL DEFAULT '',
    bound_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX wx_bind_codes_merchant ON wx_bind_codes(merchant_id, created_at);
