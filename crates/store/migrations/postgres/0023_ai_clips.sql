-- AI clip projects / one-touch videos (issue 19). The request (topic, groups, count, voice, template),
-- the state of its one durable `clip.one_touch` job (domain::aiclip::State), what each step made:
-- the script (JSON list of sentences) and who wrote it, the voice-over material with its lines, the
-- matched shots (JSON), and the mix project whose variants are the videos.
CREATE TABLE ai_clips (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'video',
    name TEXT NOT NULL,
    topic TEXT NOT NULL,
    request TEXT NOT NULL DEFAULT '{}',
    state TEXT NOT NULL DEFAULT 'draft',
    progress BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    script TEXT NOT NULL DEFAULT '[]',
    writer TEXT NOT NULL DEFAULT '',
    voice_media_id BIGINT NOT NULL DEFAULT 0,
    shots TEXT NOT NULL DEFAULT '[]',
    project_id BIGINT NOT NULL DEFAULT 0,
    job_id BIGINT NOT NULL DEFAULT 0,
    attempt BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX ai_clips_merchant ON ai_clips(merchant_id, id);
CREATE INDEX ai_clips_updated ON ai_clips(merchant_id, updated_at);
