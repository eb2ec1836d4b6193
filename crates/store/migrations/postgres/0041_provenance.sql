-- What of a finished video or a material the product generated or synthesized (issue 39: AI-content
-- labels): `domain::clip::aigc::Provenance` as JSON, '' for the merchant's own content. A variant's is
-- written when it renders (from its project's mode, its voice-over's and its script's provenance); a
-- material's when the product makes it (a TTS voice-over).
ALTER TABLE clip_variants ADD COLUMN provenance TEXT NOT NULL DEFAULT '';
ALTER TABLE media_files ADD COLUMN provenance TEXT NOT NULL DEFAULT '';
