-- Mixing projects and the variants rendered from them (the finished-video library).
CREATE TABLE clip_projects (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL DEFAULT 'normal',
    name TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    config TEXT NOT NULL DEFAULT '{}',
    seed INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX clip_projects_merchant ON clip_projects(merchant_id);

CREATE TABLE clip_variants (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    project_id INTEGER NOT NULL,
    seq TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'processing',
    error TEXT NOT NULL DEFAULT '',
    progress INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    video_key TEXT NOT NULL DEFAULT '',
    cover_key TEXT NOT NULL DEFAULT '',
    used INTEGER NOT NULL DEFAULT 0,
    points_key TEXT NOT NULL DEFAULT '',
    job_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (project_id, seq)
);
CREATE INDEX clip_variants_merchant ON clip_variants(merchant_id, project_id);
