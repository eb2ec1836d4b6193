-- The proxy a creator-console account browses through (`http://` or `socks5://`, credentials
-- allowed), sealed like its tokens, and what the console shows of it (`scheme://host:port`, without
-- credentials); both empty for none. Only the browser flows (Xiaohongshu, WeChat Channels, the
-- shop) use it.
ALTER TABLE matrix_accounts ADD COLUMN proxy TEXT NOT NULL DEFAULT '';
ALTER TABLE matrix_accounts ADD COLUMN proxy_shown TEXT NOT NULL DEFAULT '';
