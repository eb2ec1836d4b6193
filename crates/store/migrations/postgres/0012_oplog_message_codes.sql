-- The operation log keeps its message as a key (domain::i18n::Msg) and arguments, rendered in the
-- reader's language; rows written before keep their Chinese text in `message`.
ALTER TABLE op_logs ADD COLUMN message_code TEXT NOT NULL DEFAULT '';
ALTER TABLE op_logs ADD COLUMN message_args TEXT NOT NULL DEFAULT '';
