-- A creator-console account's last session check ("am I still logged in" on its console): when,
-- whether it was alive, and why not (a stored reason, rendered in the reader's language). 0: never.
ALTER TABLE matrix_accounts ADD COLUMN checked_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matrix_accounts ADD COLUMN check_ok BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matrix_accounts ADD COLUMN check_reason TEXT NOT NULL DEFAULT '';
