-- A creator-console QR login started through the account-to-be's proxy keeps it (sealed with the
-- secret key) until the login becomes an account, which then posts through the same proxy.
ALTER TABLE matrix_auth_states ADD COLUMN proxy TEXT NOT NULL DEFAULT '';
