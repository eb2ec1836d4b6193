-- Clip templates (issue 19): saved mix recipes (domain::templates::Recipe as JSON). Built-in ones have
-- merchant_id 0 and a stable builtin_key (seeded at start); a merchant's own are saved from a project.
CREATE TABLE clip_templates (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL DEFAULT 0,
    builtin_key TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL DEFAULT '',
    recipe TEXT NOT NULL,
    source_project_id BIGINT NOT NULL DEFAULT 0,
    uses BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX clip_templates_merchant ON clip_templates(merchant_id, category);

-- Favourite templates per user (template_like).
CREATE TABLE clip_template_likes (
    merchant_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    template_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT clip_template_likes_one UNIQUE (user_id, template_id)
);
