-- 100k-row lists of the demo merchant: the operation log, materials, finished videos and release items.
-- Shared by bench/lists.mjs (SQLite, through the sqlite3 command) and bench/scale (PostgreSQL, through
-- sqlx): plain SQL both accept. {ROWS} and {NOW} (ms) are replaced before it runs. `i` is a BIGINT so
-- PostgreSQL's integer products (up to ROWS * 60000) do not overflow.
BEGIN;
CREATE TEMP TABLE n(i BIGINT PRIMARY KEY);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < {ROWS}) INSERT INTO n SELECT i FROM r;
INSERT INTO op_logs (merchant_id, user_id, username, method, path, action, result, status, message, ip, request_id, created_at)
  SELECT u.merchant_id, u.id, 'demo', 'POST', '/api/clip.merchant_clip/edit', 'edit', 'ok', 200, '', '127.0.0.1', 'r' || i, {NOW} - ({ROWS} - i) * 1000
  FROM n, users u WHERE u.username = 'demo';
INSERT INTO media_files (merchant_id, library, kind, name, original_name, storage_key, mime, size, width, height, duration_ms, state, created_at, updated_at)
  SELECT u.merchant_id, 'resource', CASE WHEN i % 4 = 0 THEN 'image' ELSE 'video' END, 'clip ' || i, 'clip' || i || '.mp4',
    'm/' || u.merchant_id || '/bench-' || i || '.mp4', 'video/mp4', 1000000, 1080, 1920, 4000, 'ready', {NOW} - ({ROWS} - i) * 1000, {NOW}
  FROM n, users u WHERE u.username = 'demo';
INSERT INTO clip_projects (merchant_id, mode, name, seed, created_at, updated_at)
  SELECT merchant_id, 'normal', 'bench project', 1, {NOW}, {NOW} FROM users WHERE username = 'demo';
INSERT INTO clip_variants (merchant_id, project_id, seq, state, duration_ms, used, created_at, updated_at)
  SELECT p.merchant_id, p.id, '[' || i || ']', 'success', 15000, i % 2, {NOW} - ({ROWS} - i) * 1000, {NOW}
  FROM n, (SELECT * FROM clip_projects ORDER BY id DESC LIMIT 1) p;
INSERT INTO matrix_tasks (merchant_id, name, platform, time_mode, start_date, days, daily_quantity, review_state, review_due_at, seed, created_at, updated_at)
  SELECT merchant_id, 'bench task', 'dy', 'fixed', '2026-01-01', 30, 10, 'approved', {NOW}, 1, {NOW}, {NOW} FROM users WHERE username = 'demo';
INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, title, scheduled_at, review_state, state, published_at, created_at, updated_at)
  SELECT t.merchant_id, t.id, 1, 'dy', 'v:' || i, 'title ' || i, {NOW} - ({ROWS} - i) * 60000, 'approved', 'published', {NOW}, {NOW}, {NOW}
  FROM n, (SELECT * FROM matrix_tasks ORDER BY id DESC LIMIT 1) t;
DROP TABLE n;
COMMIT;
