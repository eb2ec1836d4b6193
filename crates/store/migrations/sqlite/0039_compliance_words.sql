-- Words the operator bans for one merchant (System → Merchants → Banned words): the copy precheck
-- (domain::compliance) blocks a post, reply, NFC title or script holding one, like a law's rule.
CREATE TABLE compliance_words (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    word TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT compliance_words_word UNIQUE (merchant_id, word)
);
