-- Operator-managed content (issue 18): courses by category with a video or rich text in zh + en,
-- published flags and sort orders, and the update log in both languages.

-- courses: category account | popular | course | shot (the four course pages); kind video | rich.
-- `link` holds the video's address (kind video); `body`/`body_en` the rich text (kind rich).
ALTER TABLE courses ADD COLUMN category TEXT NOT NULL DEFAULT 'course';
ALTER TABLE courses ADD COLUMN title_en TEXT NOT NULL DEFAULT '';
ALTER TABLE courses ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE courses ADD COLUMN summary_en TEXT NOT NULL DEFAULT '';
ALTER TABLE courses ADD COLUMN kind TEXT NOT NULL DEFAULT 'video';
ALTER TABLE courses ADD COLUMN body TEXT NOT NULL DEFAULT '';
ALTER TABLE courses ADD COLUMN body_en TEXT NOT NULL DEFAULT '';
ALTER TABLE courses ADD COLUMN published INTEGER NOT NULL DEFAULT 0;
ALTER TABLE courses ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX courses_shown ON courses(category, published, sort);

ALTER TABLE banners ADD COLUMN title_en TEXT NOT NULL DEFAULT '';
ALTER TABLE banners ADD COLUMN published INTEGER NOT NULL DEFAULT 0;
ALTER TABLE banners ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;

ALTER TABLE version_logs ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;

-- Rows written before this migration were shown to everyone: they stay shown.
UPDATE courses SET published = 1, updated_at = created_at;
UPDATE banners SET published = 1, updated_at = created_at;
UPDATE version_logs SET updated_at = created_at;
