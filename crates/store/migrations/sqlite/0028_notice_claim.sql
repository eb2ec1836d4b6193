-- A lead's WeChat notice is sent by the job engagement.lead_notify. Two runs of that job at once (a
-- lease that lapsed while its first run lived) both read the notice pending and both sent it. A run
-- now claims the notice first (the time it started sending); a claim younger than
-- domain::engagement::NOTICE_CLAIM_MS keeps every other run off it, an older one (its sender died) is
-- taken over.
ALTER TABLE eng_notices ADD COLUMN wx_claimed_at BIGINT NOT NULL DEFAULT 0;
