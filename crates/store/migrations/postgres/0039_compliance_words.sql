-- Words the operator bans for one merchant (System → Merchants → Banned words): the copy precheck
-- (domain::compliance) blocks a post, reply, NFC title or script holding one, like a law's rule.
CREATE TABLE compliance_words (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    word TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT compliance_words_word UNIQUE (merchant_id, word)
);
