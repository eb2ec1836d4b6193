-- Personal API tokens (issue 44): a merchant's or a staff member's, named, with scopes and an expiry.
-- Only the token's hash is kept (`h1:` and the SHA-256 in hex, as sessions); `hint` is what the list
-- shows of it (its first characters). `last_used_at` is written at most once a minute.
CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    hint TEXT NOT NULL DEFAULT '',
    scopes TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX api_tokens_hash ON api_tokens(token_hash);
CREATE INDEX api_tokens_user ON api_tokens(user_id);
