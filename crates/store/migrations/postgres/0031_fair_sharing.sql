-- A streamed audition's ticket (/audition?t&s) plays once: its nonce is kept from issue until its
-- first use (or its end, five minutes later; expired rows go at the next issue).
CREATE TABLE audition_tickets (
    nonce TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX audition_tickets_expiry ON audition_tickets(expires_at);

-- The public pages' device cookie is signed now; a bare id of the first version is still taken when
-- that device already tapped or drew: looked up by device.
CREATE INDEX nfc_taps_by_device ON nfc_taps(device);
CREATE INDEX activity_draws_person ON activity_draws(person);
