-- Dictionaries for the console's dictionary select: name -> options [{label, value}], operator-edited.
CREATE TABLE dictionaries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL DEFAULT '',
    options TEXT NOT NULL DEFAULT '[]',
    updated_at INTEGER NOT NULL
);
