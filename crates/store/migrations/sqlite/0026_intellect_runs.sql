-- AI smart editing runs (issue 19, /intellect): one long video of a merchant, the settings, the state
-- of its `clip.intellect` job (step analyse | pick | cut, progress, reason as a message key), the points
-- its speech recognition took (0 when the video was already recognized; refunded on failure) and the
-- chosen segments (JSON: times, score, transcript, the short's material id once cut).
CREATE TABLE intellect_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    resource_id INTEGER NOT NULL,
    group_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    min_seconds INTEGER NOT NULL,
    max_seconds INTEGER NOT NULL,
    max_count INTEGER NOT NULL,
    lang TEXT NOT NULL DEFAULT 'zh',
    state TEXT NOT NULL DEFAULT 'running',
    step TEXT NOT NULL DEFAULT 'analyse',
    progress INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    points INTEGER NOT NULL DEFAULT 0,
    points_key TEXT NOT NULL DEFAULT '',
    job_id INTEGER NOT NULL DEFAULT 0,
    segments TEXT NOT NULL DEFAULT '[]',
    created_by TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX intellect_runs_merchant ON intellect_runs(merchant_id, id);
