-- AI smart editing runs (issue 19, /intellect): one long video of a merchant, the settings, the state
-- of its `clip.intellect` job (step analyse | pick | cut, progress, reason as a message key), the points
-- its speech recognition took (0 when the video was already recognized; refunded on failure) and the
-- chosen segments (JSON: times, score, transcript, the short's material id once cut).
CREATE TABLE intellect_runs (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    resource_id BIGINT NOT NULL,
    group_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    min_seconds BIGINT NOT NULL,
    max_seconds BIGINT NOT NULL,
    max_count BIGINT NOT NULL,
    lang TEXT NOT NULL DEFAULT 'zh',
    state TEXT NOT NULL DEFAULT 'running',
    step TEXT NOT NULL DEFAULT 'analyse',
    progress BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    points BIGINT NOT NULL DEFAULT 0,
    points_key TEXT NOT NULL DEFAULT '',
    job_id BIGINT NOT NULL DEFAULT 0,
    segments TEXT NOT NULL DEFAULT '[]',
    created_by TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX intellect_runs_merchant ON intellect_runs(merchant_id, id);
