-- Batch slicing (visual editing): projects that cut long videos into clips of a material group.
CREATE TABLE clip_slice_projects (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    mode TEXT NOT NULL DEFAULT 'fixed',
    seconds BIGINT NOT NULL DEFAULT 0,
    min_seconds BIGINT NOT NULL DEFAULT 0,
    max_seconds BIGINT NOT NULL DEFAULT 0,
    group_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX clip_slice_projects_merchant ON clip_slice_projects(merchant_id);

-- One long video of a project and the state of its slicing job.
CREATE TABLE clip_slice_sources (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    project_id BIGINT NOT NULL,
    resource_id BIGINT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'pending',
    progress BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    attempt BIGINT NOT NULL DEFAULT 0,
    job_id BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (project_id, resource_id)
);
CREATE INDEX clip_slice_sources_merchant ON clip_slice_sources(merchant_id, project_id);

-- Where a slice (a video material) came from. One row per (source, start, end): a retried job skips it.
CREATE TABLE clip_slices (
    media_id BIGINT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    project_id BIGINT NOT NULL,
    source_id BIGINT NOT NULL,
    resource_id BIGINT NOT NULL,
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (source_id, start_ms, end_ms)
);
CREATE INDEX clip_slices_project ON clip_slices(merchant_id, project_id);
