-- Hot lists (issue 18): the platforms' boards (hot search, hot videos, topics, music, creators) as
-- last read by the job content.hotlist_sync, one row per board; the pages read this cache.
CREATE TABLE hot_boards (
    board TEXT PRIMARY KEY,
    platform TEXT NOT NULL DEFAULT 'dy',
    -- JSON array of the board's rows (platforms::BoardEntry), top first.
    items TEXT NOT NULL DEFAULT '[]',
    -- The platform's China day of the last good read (YYYY-MM-DD).
    day TEXT NOT NULL DEFAULT '',
    -- Last good read and last attempt (platform clock, unix ms; 0 = never).
    fetched_at BIGINT NOT NULL DEFAULT 0,
    tried_at BIGINT NOT NULL DEFAULT 0,
    -- The platform's refusal of the last attempt (both languages), '' when it succeeded.
    last_error TEXT NOT NULL DEFAULT ''
);

-- Files the operator uploads for courses (videos, covers): owned by no merchant, served by
-- /files/<id>/course with a permanent signed link that the course keeps as its video or cover link.
CREATE TABLE content_files (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    storage_key TEXT NOT NULL,
    mime TEXT NOT NULL,
    size BIGINT NOT NULL,
    original_name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
