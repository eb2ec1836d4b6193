-- What a release task posts (issue 44 part 4): 'video' (every task before) or 'image_note' (1–18
-- images with the text; the pictures' keys are in the task's config, in order).
ALTER TABLE matrix_tasks ADD COLUMN kind TEXT NOT NULL DEFAULT 'video';
