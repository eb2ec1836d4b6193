-- Mixing projects and the variants rendered from them (the finished-video library).
CREATE TABLE clip_projects (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL DEFAULT 'normal',
    name TEXT NOT NULL,
    status BIGINT NOT NULL DEFAULT 1,
    config TEXT NOT NULL DEFAULT '{}',
    seed BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX clip_projects_merchant ON clip_projects(merchant_id);

CREATE TABLE clip_variants (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    project_id BIGINT NOT NULL,
    seq TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'processing',
    error TEXT NOT NULL DEFAULT '',
    progress BIGINT NOT NULL DEFAULT 0,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    video_key TEXT NOT NULL DEFAULT '',
    cover_key TEXT NOT NULL DEFAULT '',
    used BIGINT NOT NULL DEFAULT 0,
    points_key TEXT NOT NULL DEFAULT '',
    job_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (project_id, seq)
);
CREATE INDEX clip_variants_merchant ON clip_variants(merchant_id, project_id);
