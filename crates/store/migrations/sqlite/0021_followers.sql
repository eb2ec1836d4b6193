-- Reports (issue 18): an account's follower count per China day (of the platform clock), as the
-- platform reported it (DY fans data: the last 7 days; KS, SPH, XHS, shop: the count at the sync, as
-- today's). Written by the statistics sync (matrix.sync); a later read of the same day replaces it.
CREATE TABLE account_followers (
    account_id INTEGER NOT NULL,
    day INTEGER NOT NULL,
    merchant_id INTEGER NOT NULL,
    platform TEXT NOT NULL,
    followers INTEGER NOT NULL DEFAULT 0,
    -- followers minus the account's count the day before (0 on its first day), kept on write so the
    -- series sums it instead of joining each day to the one before.
    gain INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
-- Covering: the analytics page's follower series reads this index only.
CREATE INDEX account_followers_merchant_day ON account_followers(merchant_id, day, platform, account_id, followers, gain);
