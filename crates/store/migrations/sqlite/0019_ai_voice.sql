-- AI voice (issue 14): synthesis tasks, favourite voices per user, voice clones with a provider.

-- One synthesis (putNlsTask / add_dub): the request as checked, its state (queued | running | done |
-- failed), the finished file (storage key, duration, subtitle lines as JSON [{start_ms,end_ms,content}]),
-- the points taken under `points_key`, and the voice material it was imported as (0: not imported).
CREATE TABLE tts_tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    voice TEXT NOT NULL,
    volume INTEGER NOT NULL,
    speed INTEGER NOT NULL,
    intonation INTEGER NOT NULL,
    chars INTEGER NOT NULL,
    points INTEGER NOT NULL,
    points_key TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    progress INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    storage_key TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0,
    lines TEXT NOT NULL DEFAULT '[]',
    media_id INTEGER NOT NULL DEFAULT 0,
    job_id INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX tts_tasks_merchant ON tts_tasks(merchant_id, id);

CREATE TABLE tts_voice_likes (
    merchant_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    voice TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT tts_voice_likes_voice UNIQUE (user_id, voice)
);

-- A voice cloned by a provider: the sample uploaded, the provider's speaker id, training | ready |
-- failed with the provider's reason. Only a ready clone is offered as a voice.
CREATE TABLE voice_clones (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    speaker_id TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'training',
    reason TEXT NOT NULL DEFAULT '',
    sample_key TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CONSTRAINT voice_clones_speaker_id UNIQUE (merchant_id, speaker_id)
);
