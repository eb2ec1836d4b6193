-- Duplicate risk: what a duplicate check sees of each video (`media::signature` bytes: frame hashes
-- once a second, the audio fingerprint), and each finished video's score with its reasons
-- (`domain::clip::risk`). A material's signature is made at ingest (or when a render first needs it);
-- a variant's is assembled from its clips' when it renders.
CREATE TABLE media_signatures (
    media_id BIGINT PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    signature BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE variant_signatures (
    variant_id BIGINT PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    project_id BIGINT NOT NULL,
    signature BYTEA NOT NULL,
    -- The material ids of its clips in order (shared clips between siblings).
    clips TEXT NOT NULL DEFAULT '[]',
    -- The text it shows (title, subtitles, captions), one line each.
    text TEXT NOT NULL DEFAULT '',
    -- The second its cover is taken from (-1: none).
    cover_s BIGINT NOT NULL DEFAULT -1,
    created_at BIGINT NOT NULL
);
CREATE INDEX variant_signatures_project ON variant_signatures(project_id);
CREATE INDEX variant_signatures_merchant ON variant_signatures(merchant_id);
-- NULL: not measured yet. `risk` is the higher of the two; each part only ever rises (a sibling made
-- later raises an earlier one's), written by one conditional UPDATE so concurrent renders cannot lose
-- each other's.
ALTER TABLE clip_variants ADD COLUMN risk BIGINT;
ALTER TABLE clip_variants ADD COLUMN risk_sibling BIGINT;
ALTER TABLE clip_variants ADD COLUMN risk_sibling_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE clip_variants ADD COLUMN risk_published BIGINT;
ALTER TABLE clip_variants ADD COLUMN risk_published_reason TEXT NOT NULL DEFAULT '';
