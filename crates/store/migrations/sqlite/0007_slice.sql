-- Batch slicing (visual editing): projects that cut long videos into clips of a material group.
CREATE TABLE clip_slice_projects (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    mode TEXT NOT NULL DEFAULT 'fixed',
    seconds INTEGER NOT NULL DEFAULT 0,
    min_seconds INTEGER NOT NULL DEFAULT 0,
    max_seconds INTEGER NOT NULL DEFAULT 0,
    group_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX clip_slice_projects_merchant ON clip_slice_projects(merchant_id);

-- One long video of a project and the state of its slicing job.
CREATE TABLE clip_slice_sources (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    project_id INTEGER NOT NULL,
    resource_id INTEGER NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'pending',
    progress INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    attempt INTEGER NOT NULL DEFAULT 0,
    job_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (project_id, resource_id)
);
CREATE INDEX clip_slice_sources_merchant ON clip_slice_sources(merchant_id, project_id);

-- Where a slice (a video material) came from. One row per (source, start, end): a retried job skips it.
CREATE TABLE clip_slices (
    media_id INTEGER PRIMARY KEY,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    project_id INTEGER NOT NULL,
    source_id INTEGER NOT NULL,
    resource_id INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (source_id, start_ms, end_ms)
);
CREATE INDEX clip_slices_project ON clip_slices(merchant_id, project_id);
