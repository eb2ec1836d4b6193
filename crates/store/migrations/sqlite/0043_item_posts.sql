-- What one post of a release task carries when it differs from its task's form (issue 44, release
-- batches imported from a sheet: each row its own topics, @-mentions, mount and declaration), as a
-- `domain::matrix::ItemPost` JSON object. Items without a row here post with their task's config.
CREATE TABLE matrix_item_posts (
    item_id INTEGER PRIMARY KEY,
    merchant_id INTEGER NOT NULL,
    post TEXT NOT NULL DEFAULT ''
);
