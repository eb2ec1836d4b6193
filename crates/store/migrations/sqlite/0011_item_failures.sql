-- A release item keeps why it failed as a reason code and its arguments (a JSON object), shown in the
-- reader's language through domain::i18n::Msg (issue 13). Rows written before keep their texts in
-- error_zh/error_en, which the console reads when an item has no code.
ALTER TABLE matrix_items ADD COLUMN error_code TEXT NOT NULL DEFAULT '';
ALTER TABLE matrix_items ADD COLUMN error_args TEXT NOT NULL DEFAULT '';
-- Likewise why the platform ended an account's authorization (revoked_reason keeps older texts).
ALTER TABLE matrix_accounts ADD COLUMN revoked_code TEXT NOT NULL DEFAULT '';
ALTER TABLE matrix_accounts ADD COLUMN revoked_args TEXT NOT NULL DEFAULT '';
