-- The built-in music set the operator maintains; merchants copy tracks into their own library.
CREATE TABLE system_music (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT '',
    storage_key TEXT NOT NULL,
    mime TEXT NOT NULL,
    size BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
