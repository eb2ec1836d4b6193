-- Who created a release task. The staff report (/special2) counted tasks from the operation log's
-- paths, which missed the tasks made by createCommonPublishTask/createPublishTask and counted
-- previews; it now counts the tasks themselves. 0: made before this column, or by no signed-in user.
ALTER TABLE matrix_tasks ADD COLUMN user_id BIGINT NOT NULL DEFAULT 0;
