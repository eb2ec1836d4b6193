-- A comment's lead is made after the comment is stored (engagement.sync, webhooks). A worker killed in
-- between left the comment stored and its lead never made: the next sync found the comment known and
-- skipped it. New comments now start unchecked and are checked for a lead until that is done; the
-- comments stored before this column were checked when they arrived.
ALTER TABLE eng_comments ADD COLUMN lead_checked BIGINT NOT NULL DEFAULT 1;
CREATE INDEX eng_comments_lead_unchecked ON eng_comments(account_id) WHERE lead_checked = 0;
