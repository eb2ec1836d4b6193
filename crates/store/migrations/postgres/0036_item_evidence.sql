-- What the page looked like when a browser flow failed on a release item (the creator consoles of
-- Xiaohongshu, WeChat Channels and the shop): the step's code, the page's address, and where the
-- screenshot (`<key>.png`) and the page's HTML (`<key>.html`) are stored. The latest failure only;
-- empty when no browser step failed.
ALTER TABLE matrix_items ADD COLUMN evidence_step TEXT NOT NULL DEFAULT '';
ALTER TABLE matrix_items ADD COLUMN evidence_url TEXT NOT NULL DEFAULT '';
ALTER TABLE matrix_items ADD COLUMN evidence_key TEXT NOT NULL DEFAULT '';
