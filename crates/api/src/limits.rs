//! The limits the console checks before it sends a form, per area and by the console's names. They
//! are exported in the OpenAPI document as `x-limits`; `make api-types` writes them to
//! `web/src/api/limits.ts`, which `web/src/pages/<area>/rules.ts` import: each is the constant the
//! server enforces, so the two sides cannot drift.

use serde_json::Value;
use std::collections::BTreeMap;

/// One area's limits by the console's names.
type Area = BTreeMap<&'static str, Value>;

fn area<const N: usize>(pairs: [(&'static str, Value); N]) -> Area {
    pairs.into_iter().collect()
}

pub fn document() -> Value {
    use domain::{activities as act, ai, clip, engagement as eng, matrix, seo};
    let areas: BTreeMap<&str, Area> = BTreeMap::from([
        (
            "activities",
            area([
                ("NAME_MAX", (act::NAME_MAX).into()),
                ("PER_PERSON_MAX", (act::PER_PERSON_MAX).into()),
                ("PER_DAY_MAX", (act::PER_DAY_MAX).into()),
                ("RULES_MAX", (act::RULES_MAX).into()),
                ("PRIZE_NAME_MAX", (act::PRIZE_NAME_MAX).into()),
                ("PRIZE_DESCRIPTION_MAX", (act::DESCRIPTION_MAX).into()),
                ("STOCK_MAX", (act::STOCK_MAX).into()),
                ("PRIZE_LIMIT_MAX", (act::PRIZE_LIMIT_MAX).into()),
                ("VALID_DAYS_MAX", (act::VALID_DAYS_MAX).into()),
                // odds are percentages with the scale's precision (basis points)
                ("ODDS_MIN", (100.0 / act::ODDS_SCALE as f64).into()),
                ("ODDS_MAX", (act::ODDS_SCALE / 100).into()),
                ("PRIZES_MAX", (act::PRIZES_MAX).into()),
            ]),
        ),
        ("ai", area([("MAX_CHARS", (ai::MAX_TEXT_CHARS).into())])),
        (
            "clip",
            area([
                ("MIN_GROUPS", (domain::clip::planner::MIN_GROUPS).into()),
                ("MAX_TITLE_CHARS", (clip::MAX_TITLE_CHARS).into()),
                ("MAX_TITLES", (clip::MAX_TITLES).into()),
                ("RECOMMENDED_POOL", (clip::RECOMMENDED_POOL).into()),
                ("MAX_BATCH", (clip::MAX_BATCH).into()),
                ("POINTS_PER_VARIANT", (clip::POINTS_PER_VARIANT).into()),
                (
                    "MAX_NAME_CHARS",
                    (services::clip::projects::PROJECT_NAME_MAX).into(),
                ),
                ("SIZE_MIN", (clip::FONT_SIZE.0).into()),
                ("SIZE_MAX", (clip::FONT_SIZE.1).into()),
                ("MAX_TRACKS", (clip::MAX_TRACKS).into()),
                ("RISK_HIGH", (clip::risk::HIGH).into()),
                ("RISK_MEDIUM", (clip::risk::MEDIUM).into()),
                ("MAX_SHOT_TEXT_CHARS", (clip::SHOT_TEXT_MAX_CHARS).into()),
                ("TRANSITION_MS_MIN", (clip::TRANSITION_MS.0).into()),
                ("TRANSITION_MS_MAX", (clip::TRANSITION_MS.1).into()),
            ]),
        ),
        (
            "engagement",
            area([
                ("REPLY_MAX", (matrix::COMMENT_MAX).into()),
                ("REPLIES_MAX", (eng::REPLIES_MAX).into()),
            ]),
        ),
        (
            "matrix",
            area([
                ("TITLE_MAX", (matrix::TITLE_MAX).into()),
                ("NAME_MAX", (matrix::TASK_NAME_MAX).into()),
                ("COMMENT_MAX", (matrix::COMMENT_MAX).into()),
                ("COMMENT_PICK", (matrix::COMMENT_PICK).into()),
                ("PER_ACCOUNT_DAY", (matrix::PER_ACCOUNT_DAY).into()),
                ("DAYS_MAX", (matrix::MAX_DAYS).into()),
                ("GROUP_NAME_MAX", (matrix::GROUP_NAME_MAX).into()),
                ("REMARKS_MAX", (matrix::REMARKS_MAX).into()),
                ("REASON_MAX", (matrix::REASON_MAX).into()),
                ("NOTE_IMAGES_MIN", (matrix::notes::IMAGES_MIN).into()),
                ("NOTE_IMAGES_MAX", (matrix::notes::IMAGES_MAX).into()),
            ]),
        ),
        (
            "nfc",
            area([
                ("TAG_NAME_MAX", (act::NAME_MAX).into()),
                ("TITLE_MAX", (matrix::TITLE_MAX).into()),
                ("TITLES_PER_ADD", (act::TITLES_AT_ONCE).into()),
            ]),
        ),
        (
            "seo",
            area([
                ("WORD_MAX", (seo::limits::WORD_MAX).into()),
                ("WORDS_PER_ADD", (seo::limits::BULK_MAX).into()),
                ("TITLE_MAX", (seo::RELEASE_TITLE_MAX).into()),
                ("CLIP_TITLE_MAX", (seo::CLIP_TITLE_MAX).into()),
                ("COUNT_MAX", (seo::limits::WRITE_MAX).into()),
                ("CATEGORY_NAME_MAX", (seo::limits::CATEGORY_NAME_MAX).into()),
                ("PROFILE_FIELD_MAX", (seo::limits::PROFILE_WORD_MAX).into()),
                ("DESCRIPTION_MAX", (seo::limits::DESCRIPTION_MAX).into()),
            ]),
        ),
        (
            "system",
            area([
                ("SMS_FIELD_MAX", (domain::system::sms::FIELD_MAX).into()),
                (
                    "SMS_SIGN_NAME_MAX",
                    (domain::system::sms::SIGN_NAME_MAX).into(),
                ),
            ]),
        ),
    ]);
    serde_json::to_value(areas).expect("numbers serialize")
}
