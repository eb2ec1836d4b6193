-- Clip templates (issue 19): saved mix recipes (domain::templates::Recipe as JSON). Built-in ones have
-- merchant_id 0 and a stable builtin_key (seeded at start); a merchant's own are saved from a project.
CREATE TABLE clip_templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id INTEGER NOT NULL DEFAULT 0,
    builtin_key TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL DEFAULT '',
    recipe TEXT NOT NULL,
    source_project_id INTEGER NOT NULL DEFAULT 0,
    uses INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX clip_templates_merchant ON clip_templates(merchant_id, category);

-- Favourite templates per user (template_like).
CREATE TABLE clip_template_likes (
    merchant_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    template_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT clip_template_likes_one UNIQUE (user_id, template_id)
);
