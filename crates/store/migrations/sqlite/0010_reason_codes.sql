-- Texts in the reader's language (issue 12): points-ledger reasons become codes read through Msg (the
-- operator's own top-up note stays in `reason`), and the update log keeps each language apart.
ALTER TABLE points_ledger ADD COLUMN reason_code TEXT NOT NULL DEFAULT '';
UPDATE points_ledger SET reason_code = 'welcome', reason = '', operator = ''
    WHERE reason = 'welcome points' AND operator = 'system';
UPDATE points_ledger SET reason_code = 'topup', reason = '' WHERE reason = 'top-up' AND kind = 'topup';
UPDATE points_ledger SET reason_code = 'topup' WHERE reason_code = '' AND kind = 'topup';
UPDATE points_ledger SET reason_code = 'video_synthesis', reason = '' WHERE reason = 'video synthesis';
UPDATE points_ledger SET reason_code = 'video_synthesis_failed', reason = '' WHERE reason = 'video synthesis failed';
UPDATE points_ledger SET reason_code = 'video_synthesis_cancelled', reason = '' WHERE reason = 'video synthesis cancelled';
UPDATE points_ledger SET reason_code = 'subtitle_recognition', reason = '' WHERE reason = 'subtitle recognition';
UPDATE points_ledger SET reason_code = 'subtitle_recognition_failed', reason = '' WHERE reason = 'subtitle recognition failed';
UPDATE points_ledger SET reason_code = 'subtitle_recognition_not_started', reason = '' WHERE reason = 'could not start recognition';

ALTER TABLE version_logs ADD COLUMN content_en TEXT NOT NULL DEFAULT '';
-- The seeded entry held "zh<newline>en".
UPDATE version_logs SET content_en = substr(content, instr(content, char(10)) + 1), content = substr(content, 1, instr(content, char(10)) - 1)
    WHERE instr(content, char(10)) > 0 AND content_en = '';
