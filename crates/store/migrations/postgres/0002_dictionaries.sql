-- Dictionaries for the console's dictionary select: name -> options [{label, value}], operator-edited.
CREATE TABLE dictionaries (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL DEFAULT '',
    options TEXT NOT NULL DEFAULT '[]',
    updated_at BIGINT NOT NULL
);
