-- Material libraries: classify tree, shot groups, every stored file, file types, uploads in progress,
-- subtitle lines, and where materials are used (so deleting a used one can be refused).
CREATE TABLE material_classify (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    parent_id INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX material_classify_merchant ON material_classify(merchant_id);

CREATE TABLE resource_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    classify_id INTEGER NOT NULL DEFAULT 0,
    kind TEXT NOT NULL DEFAULT 'video',
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX resource_groups_merchant ON resource_groups(merchant_id);

CREATE TABLE media_files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    library TEXT NOT NULL,
    kind TEXT NOT NULL,
    group_id INTEGER NOT NULL DEFAULT 0,
    classify_id INTEGER NOT NULL DEFAULT 0,
    file_type_id INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    original_name TEXT NOT NULL,
    storage_key TEXT NOT NULL,
    mime TEXT NOT NULL,
    size INTEGER NOT NULL,
    width INTEGER NOT NULL DEFAULT 0,
    height INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    fps REAL NOT NULL DEFAULT 0,
    video_codec TEXT NOT NULL DEFAULT '',
    audio_codec TEXT NOT NULL DEFAULT '',
    has_audio INTEGER NOT NULL DEFAULT 0,
    rotation INTEGER NOT NULL DEFAULT 0,
    loudness REAL,
    poster_key TEXT NOT NULL DEFAULT '',
    strip_key TEXT NOT NULL DEFAULT '',
    mezzanine_key TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'ready',
    error TEXT NOT NULL DEFAULT '',
    progress INTEGER NOT NULL DEFAULT 0,
    asr_state TEXT NOT NULL DEFAULT '',
    asr_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX media_files_merchant ON media_files(merchant_id, library, group_id);

CREATE TABLE file_types (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    kind TEXT NOT NULL,
    parent_id INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX file_types_merchant ON file_types(merchant_id, kind);

CREATE TABLE upload_sessions (
    id TEXT PRIMARY KEY,
    merchant_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    chunk_size INTEGER NOT NULL,
    chunks TEXT NOT NULL DEFAULT '',
    library TEXT NOT NULL,
    group_id INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE asr_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    resource_id INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX asr_lines_resource ON asr_lines(resource_id, start_ms);

CREATE TABLE material_uses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL,
    media_id INTEGER NOT NULL,
    user_kind TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX material_uses_media ON material_uses(media_id);
