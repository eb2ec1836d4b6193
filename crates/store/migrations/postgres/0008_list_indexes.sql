-- Every list's default sort and common filters walk an index instead of sorting all of a merchant's rows
-- (the operation log sorted 32.6k rows per page). The same indexes on both databases; the trailing `id`
-- is the list's tiebreak (SQLite appends the rowid anyway, PostgreSQL needs it named).
-- The log reads newest first by time, so its date filters and its order share one index.
CREATE INDEX op_logs_merchant_time ON op_logs(merchant_id, created_at, id);
CREATE INDEX op_logs_time ON op_logs(created_at, id);
CREATE INDEX media_files_library_id ON media_files(merchant_id, library, id);
CREATE INDEX media_files_library_kind ON media_files(merchant_id, library, kind, state, id);
CREATE INDEX media_files_library_group ON media_files(merchant_id, library, group_id, id);
CREATE INDEX clip_variants_merchant_id ON clip_variants(merchant_id, id);
CREATE INDEX clip_variants_merchant_state ON clip_variants(merchant_id, state, id);
CREATE INDEX clip_variants_project_id ON clip_variants(merchant_id, project_id, id);
CREATE INDEX clip_projects_merchant_mode ON clip_projects(merchant_id, mode, id);
CREATE INDEX matrix_items_merchant_sched ON matrix_items(merchant_id, scheduled_at, id);
CREATE INDEX matrix_items_merchant_state ON matrix_items(merchant_id, state, scheduled_at, id);
CREATE INDEX matrix_items_task_sched ON matrix_items(task_id, scheduled_at, id);
CREATE INDEX matrix_tasks_merchant_id ON matrix_tasks(merchant_id, deleted, id);
CREATE INDEX matrix_accounts_merchant_id ON matrix_accounts(merchant_id, id);
CREATE INDEX matrix_accounts_group ON matrix_accounts(group_id, merchant_id);
CREATE INDEX matrix_groups_merchant_id ON matrix_groups(merchant_id, id);
CREATE INDEX points_ledger_merchant_id ON points_ledger(merchant_id, id);
CREATE INDEX users_merchant_kind ON users(merchant_id, kind, id);
CREATE INDEX resource_groups_merchant_kind ON resource_groups(merchant_id, kind, sort, id);
CREATE INDEX clip_slice_projects_merchant_id ON clip_slice_projects(merchant_id, id);
CREATE INDEX clip_slices_order ON clip_slices(merchant_id, project_id, source_id, start_ms, media_id);
-- Superseded by the indexes above (each is their prefix).
DROP INDEX op_logs_merchant;
DROP INDEX media_files_merchant;
DROP INDEX clip_variants_merchant;
DROP INDEX matrix_items_minute;
DROP INDEX users_merchant;
DROP INDEX clip_slice_projects_merchant;
DROP INDEX clip_slices_project;
DROP INDEX matrix_tasks_merchant;
DROP INDEX clip_projects_merchant;
