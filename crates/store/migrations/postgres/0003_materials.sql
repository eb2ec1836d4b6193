-- Material libraries: classify tree, shot groups, every stored file, file types, uploads in progress,
-- subtitle lines, and where materials are used (so deleting a used one can be refused).
CREATE TABLE material_classify (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    parent_id BIGINT NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX material_classify_merchant ON material_classify(merchant_id);

CREATE TABLE resource_groups (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    classify_id BIGINT NOT NULL DEFAULT 0,
    kind TEXT NOT NULL DEFAULT 'video',
    name TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX resource_groups_merchant ON resource_groups(merchant_id);

CREATE TABLE media_files (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    library TEXT NOT NULL,
    kind TEXT NOT NULL,
    group_id BIGINT NOT NULL DEFAULT 0,
    classify_id BIGINT NOT NULL DEFAULT 0,
    file_type_id BIGINT NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    original_name TEXT NOT NULL,
    storage_key TEXT NOT NULL,
    mime TEXT NOT NULL,
    size BIGINT NOT NULL,
    width BIGINT NOT NULL DEFAULT 0,
    height BIGINT NOT NULL DEFAULT 0,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    fps DOUBLE PRECISION NOT NULL DEFAULT 0,
    video_codec TEXT NOT NULL DEFAULT '',
    audio_codec TEXT NOT NULL DEFAULT '',
    has_audio BIGINT NOT NULL DEFAULT 0,
    rotation BIGINT NOT NULL DEFAULT 0,
    loudness DOUBLE PRECISION,
    poster_key TEXT NOT NULL DEFAULT '',
    strip_key TEXT NOT NULL DEFAULT '',
    mezzanine_key TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'ready',
    error TEXT NOT NULL DEFAULT '',
    progress BIGINT NOT NULL DEFAULT 0,
    asr_state TEXT NOT NULL DEFAULT '',
    asr_error TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX media_files_merchant ON media_files(merchant_id, library, group_id);

CREATE TABLE file_types (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    kind TEXT NOT NULL,
    parent_id BIGINT NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX file_types_merchant ON file_types(merchant_id, kind);

CREATE TABLE upload_sessions (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    file_name TEXT NOT NULL,
    size BIGINT NOT NULL,
    chunk_size BIGINT NOT NULL,
    chunks TEXT NOT NULL DEFAULT '',
    library TEXT NOT NULL,
    group_id BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE asr_lines (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    resource_id BIGINT NOT NULL,
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    content TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX asr_lines_resource ON asr_lines(resource_id, start_ms);

CREATE TABLE material_uses (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    media_id BIGINT NOT NULL,
    user_kind TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX material_uses_media ON material_uses(media_id);
