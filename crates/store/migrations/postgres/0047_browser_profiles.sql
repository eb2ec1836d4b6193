-- Creator-console accounts across worker nodes: each account's browser login (Playwright's storage
-- state: cookies, local storage, IndexedDB), sealed with the secret key, so any node can act for
-- it; and a lease so two nodes never drive one account at once. Keyed by the profile key (the
-- console account's session token, made at its QR login); account_id is set once the login became
-- an account, so removing the account removes its login.
CREATE TABLE browser_profiles (
    profile_key TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT '',
    state_bytes BIGINT NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL DEFAULT 0,
    lease_holder TEXT NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX browser_profiles_account ON browser_profiles (account_id);
