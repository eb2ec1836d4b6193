//! The request schemas declare what the server enforces: the fields it always refuses when missing
//! are `required`, the fields it takes from a fixed set are enums, and its limits are bounds. utoipa
//! only takes number literals for bounds, so each declared literal is checked here against the
//! constant the server enforces, and every bound a request schema declares must be in that table.

use serde_json::Value;
use std::collections::BTreeSet;

/// The document's schemas, a composed one (`allOf`: a type with `#[serde(flatten)]` fields) read
/// as the one object it is on the wire: its parts' properties and required fields merged.
fn schemas() -> serde_json::Map<String, Value> {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    let all = doc["components"]["schemas"]
        .as_object()
        .expect("components.schemas")
        .clone();
    let mut out = all.clone();
    for (name, s) in &all {
        let Some(parts) = s["allOf"].as_array() else {
            continue;
        };
        let (mut props, mut required) = (serde_json::Map::new(), vec![]);
        for part in parts {
            let part = match part["$ref"].as_str() {
                Some(r) => &all[r.trim_start_matches("#/components/schemas/")],
                None => part,
            };
            props.extend(part["properties"].as_object().cloned().unwrap_or_default());
            required.extend(part["required"].as_array().cloned().unwrap_or_default());
        }
        out.insert(
            name.clone(),
            serde_json::json!({"type": "object", "properties": props, "required": required}),
        );
    }
    out
}

/// The names of the schemas some operation takes as its body.
fn request_schemas() -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    let mut out = BTreeSet::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        for op in item.as_object().expect("a path item").values() {
            for media in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flat_map(|c| c.values())
            {
                if let Some(r) = media["schema"]["$ref"].as_str() {
                    out.insert(r.trim_start_matches("#/components/schemas/").to_string());
                }
            }
        }
    }
    out
}

/// (schema, property, keyword, the server's value).
fn mirrored() -> Vec<(&'static str, &'static str, &'static str, i64)> {
    use domain::clip::one_touch as aiclip;
    use domain::system::sms;
    use domain::validate::{
        MERCHANT_NAME_MAX, MOBILE_LEN, NICKNAME_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN,
    };
    use domain::{activities, ai, clip, matrix, seo};
    let mobile = MOBILE_LEN as i64;
    let mut out: Vec<(&'static str, &'static str, &'static str, i64)> = [
        "base_url",
        "access_key_id",
        "access_key_secret",
        "app_id",
        "region",
        "template_login",
        "template_register",
        "template_reset",
    ]
    .map(|f| ("SmsGatewayReq", f, "maxLength", sms::FIELD_MAX as i64))
    .to_vec();
    out.extend(vec![
        (
            "ApiTokenReq",
            "name",
            "maxLength",
            services::auth::tokens::NAME_MAX as i64,
        ),
        (
            "ApiTokenReq",
            "expires_in_days",
            "maximum",
            services::auth::tokens::EXPIRY_DAYS_MAX,
        ),
        ("AiDubReq", "text", "maxLength", ai::MAX_TEXT_CHARS as i64),
        (
            "VendorReq",
            "api_key",
            "maxLength",
            seo::VENDOR_KEY_MAX as i64,
        ),
        (
            "SmsGatewayReq",
            "sign_name",
            "maxLength",
            sms::SIGN_NAME_MAX as i64,
        ),
        ("SmsTestReq", "mobile", "minLength", mobile),
        ("SmsTestReq", "mobile", "maxLength", mobile),
        ("AiDubReq", "volume", "minimum", 0),
        ("AiDubReq", "volume", "maximum", ai::VOLUME_MAX),
        ("AiDubReq", "speed", "minimum", ai::RATE_MIN),
        ("AiDubReq", "speed", "maximum", ai::RATE_MAX),
        ("AiDubReq", "intonation", "minimum", ai::RATE_MIN),
        ("AiDubReq", "intonation", "maximum", ai::RATE_MAX),
        ("TaskReq", "name", "maxLength", matrix::TASK_NAME_MAX as i64),
        (
            "BatchReq",
            "name",
            "maxLength",
            matrix::TASK_NAME_MAX as i64,
        ),
        (
            "BatchReq",
            "rows",
            "maxItems",
            domain::sheet::ROWS_MAX as i64,
        ),
        ("TaskReq", "days", "maximum", matrix::MAX_DAYS as i64),
        (
            "TaskReq",
            "daily_quantity",
            "maximum",
            matrix::PER_ACCOUNT_DAY as i64,
        ),
        (
            "TaskReq",
            "image_ids",
            "maxItems",
            matrix::notes::IMAGES_MAX as i64,
        ),
        ("NoteFrames", "count", "minimum", 1),
        (
            "NoteFrames",
            "count",
            "maximum",
            matrix::notes::FRAMES_MAX as i64,
        ),
        ("AiClipReq", "topic", "maxLength", aiclip::TOPIC_MAX as i64),
        ("AiClipReq", "seconds", "minimum", aiclip::SECONDS.0),
        ("AiClipReq", "seconds", "maximum", aiclip::SECONDS.1),
        ("AiClipReq", "count", "maximum", aiclip::MAX_VARIANTS),
        (
            "ProjectSaveReq",
            "name",
            "maxLength",
            services::clip::projects::PROJECT_NAME_MAX as i64,
        ),
        ("GenerateReq", "count", "maximum", clip::MAX_BATCH),
        (
            "FileTypeAddReq",
            "name",
            "maxLength",
            services::materials::library::FILE_TYPE_NAME_MAX as i64,
        ),
        ("TagReq", "name", "maxLength", activities::NAME_MAX as i64),
        ("WordReq", "word", "maxLength", seo::limits::SEED_MAX as i64),
        (
            "KeywordReq",
            "word",
            "maxLength",
            seo::limits::SEED_MAX as i64,
        ),
        (
            "AccountGroupReq",
            "name",
            "maxLength",
            matrix::GROUP_NAME_MAX as i64,
        ),
    ]);
    // Accounts: one username, mobile and password rule wherever a form takes them.
    for s in ["RegisterReq", "StaffAddReq"] {
        out.push((s, "username", "minLength", USERNAME_MIN as i64));
        out.push((s, "username", "maxLength", USERNAME_MAX as i64));
    }
    for s in ["SmsReq", "RegisterReq", "ResetPasswordReq"] {
        out.push((s, "mobile", "minLength", mobile));
        out.push((s, "mobile", "maxLength", mobile));
    }
    for s in [
        "RegisterReq",
        "ResetPasswordReq",
        "PasswordReq",
        "StaffAddReq",
    ] {
        out.push((s, "password", "minLength", PASSWORD_MIN as i64));
    }
    use domain::engagement as eng;
    for (field, max) in [
        ("start_minute", eng::DAY_MINUTES),
        ("end_minute", eng::DAY_MINUTES),
        ("daily_cap", eng::DAILY_CAP_MAX),
        ("min_gap_s", eng::MIN_GAP_MAX_S),
    ] {
        out.push(("RuleReq", field, "maximum", max));
    }
    out.extend([
        ("RuleReq", "name", "maxLength", eng::RULE_NAME_MAX as i64),
        ("TimeReq", "days", "maximum", matrix::MAX_DAYS as i64),
        (
            "TimeReq",
            "daily_quantity",
            "maximum",
            matrix::PER_ACCOUNT_DAY as i64,
        ),
        (
            "ActivityReq",
            "name",
            "maxLength",
            activities::NAME_MAX as i64,
        ),
        (
            "ActivityReq",
            "per_person",
            "maximum",
            activities::PER_PERSON_MAX,
        ),
        ("ActivityReq", "per_day", "maximum", activities::PER_DAY_MAX),
        (
            "ActivityReq",
            "rules_text",
            "maxLength",
            activities::RULES_MAX as i64,
        ),
        (
            "ActivityReq",
            "prizes",
            "maxItems",
            activities::PRIZES_MAX as i64,
        ),
        (
            "PrizeReq",
            "name",
            "maxLength",
            activities::PRIZE_NAME_MAX as i64,
        ),
        (
            "PrizeReq",
            "description",
            "maxLength",
            activities::DESCRIPTION_MAX as i64,
        ),
        (
            "RegisterReq",
            "merchant_name",
            "maxLength",
            MERCHANT_NAME_MAX as i64,
        ),
        ("ProfileReq", "nickname", "maxLength", NICKNAME_MAX as i64),
        ("StaffAddReq", "nickname", "maxLength", NICKNAME_MAX as i64),
        ("MerchantAdd", "username", "minLength", USERNAME_MIN as i64),
        ("MerchantAdd", "username", "maxLength", USERNAME_MAX as i64),
        ("MerchantAdd", "password", "minLength", PASSWORD_MIN as i64),
        ("MerchantAdd", "mobile", "maxLength", mobile),
    ]);
    // The operator's content: courses, banners and the update log.
    use domain::content as ct;
    for s in ["CourseReq", "BannerReq"] {
        out.push((s, "title", "maxLength", ct::TITLE_MAX as i64));
        out.push((s, "title_en", "maxLength", ct::TITLE_MAX as i64));
        out.push((s, "sort", "maximum", ct::SORT_MAX));
    }
    for (s, f) in [
        ("CourseReq", "cover"),
        ("CourseReq", "video_url"),
        ("BannerReq", "image"),
        ("BannerReq", "link"),
    ] {
        out.push((s, f, "maxLength", ct::LINK_MAX as i64));
    }
    for f in ["summary", "summary_en"] {
        out.push(("CourseReq", f, "maxLength", ct::SUMMARY_MAX as i64));
    }
    for f in ["body", "body_en"] {
        out.push(("CourseReq", f, "maxLength", ct::BODY_MAX as i64));
    }
    out.push(("VersionReq", "version", "maxLength", ct::VERSION_MAX as i64));
    for f in ["content", "content_en"] {
        out.push(("VersionReq", f, "maxLength", ct::NOTES_MAX as i64));
    }
    // SEO: the library, the profile, search, benchmarks and the title provider.
    let lim = |v: usize| v as i64;
    use domain::seo::limits as sl;
    out.extend([
        (
            "CategoryReq",
            "name",
            "maxLength",
            lim(sl::CATEGORY_NAME_MAX),
        ),
        ("WordEditReq", "word", "maxLength", lim(sl::WORD_MAX)),
        (
            "TitleEditReq",
            "title",
            "maxLength",
            lim(domain::seo::RELEASE_TITLE_MAX),
        ),
        (
            "SeoProfile",
            "brand",
            "maxLength",
            lim(sl::PROFILE_WORD_MAX),
        ),
        (
            "SeoProfile",
            "product",
            "maxLength",
            lim(sl::PROFILE_WORD_MAX),
        ),
        (
            "SeoProfile",
            "region",
            "maxLength",
            lim(sl::PROFILE_WORD_MAX),
        ),
        (
            "SeoProfile",
            "description",
            "maxLength",
            lim(sl::DESCRIPTION_MAX),
        ),
        ("CollectReq", "word", "maxLength", lim(sl::SEED_MAX)),
        ("AddReq", "link", "maxLength", lim(sl::BENCH_LINK_MAX)),
        (
            "ProviderReq",
            "base_url",
            "maxLength",
            lim(sl::PROVIDER_URL_MAX),
        ),
        (
            "ProviderReq",
            "model",
            "maxLength",
            lim(sl::PROVIDER_MODEL_MAX),
        ),
        (
            "ProviderReq",
            "timeout_s",
            "maximum",
            sl::PROVIDER_TIMEOUT_MAX_S as i64,
        ),
    ]);
    // Materials, clips and voices.
    use domain::clip::{intellect as ic, slicing as sc};
    use services::materials::library::GROUP_NAME_MAX as MAT_GROUP_MAX;
    out.extend([
        ("GroupAdd", "name", "maxLength", lim(MAT_GROUP_MAX)),
        ("ClassifyAdd", "name", "maxLength", lim(MAT_GROUP_MAX)),
        (
            "AiCloneReq",
            "name",
            "maxLength",
            lim(services::ai::clone::CLONE_NAME_MAX),
        ),
        (
            "ProjectReq",
            "name",
            "maxLength",
            lim(services::clip::projects::PROJECT_NAME_MAX),
        ),
        (
            "ProjectReq",
            "resource_ids",
            "maxItems",
            lim(services::clip::slicing::MAX_SOURCES),
        ),
        ("RunReq", "count", "maximum", ic::MAX_COUNT),
    ]);
    for f in ["seconds", "min_seconds", "max_seconds"] {
        out.push(("ProjectReq", f, "minimum", sc::MIN_SECONDS));
        out.push(("ProjectReq", f, "maximum", sc::MAX_SECONDS));
    }
    for f in ["min_seconds", "max_seconds"] {
        out.push(("RunReq", f, "minimum", ic::MIN_SECONDS));
        out.push(("RunReq", f, "maximum", ic::MAX_SECONDS));
    }
    // Matrix, NFC, engagement and the system area.
    use services::engagement::{notify as wx, privmsg as pm};
    out.extend([
        (
            "AiteReq",
            "nickname",
            "maxLength",
            lim(matrix::GROUP_NAME_MAX),
        ),
        ("ShareReq", "title", "maxLength", lim(matrix::TITLE_MAX)),
        ("TitleReq", "title", "maxLength", lim(matrix::TITLE_MAX)),
        ("PrivateSendReq", "text", "maxLength", lim(pm::MESSAGE_MAX)),
        (
            "QuickReplyReq",
            "text",
            "maxLength",
            lim(pm::QUICK_REPLY_MAX),
        ),
        ("QuickReplyReq", "sort", "maximum", pm::QUICK_REPLY_SORT_MAX),
        ("WxConfigReq", "app_id", "maxLength", lim(wx::WX_APP_ID_MAX)),
        (
            "AigcProvider",
            "name",
            "maxLength",
            lim(domain::clip::aigc::PROVIDER_MAX_CHARS),
        ),
        (
            "AigcProvider",
            "code",
            "maxLength",
            lim(domain::clip::aigc::PROVIDER_MAX_CHARS),
        ),
        (
            "CopyCheckReq",
            "text",
            "maxLength",
            lim(services::compliance::TEXT_MAX),
        ),
        (
            "BannedWordsAdd",
            "words",
            "maxItems",
            lim(services::system::banned_words::ADD_MAX),
        ),
        (
            "WxConfigReq",
            "app_secret",
            "maxLength",
            lim(wx::WX_SECRET_MAX),
        ),
        (
            "WxConfigReq",
            "template_id",
            "maxLength",
            lim(wx::WX_TEMPLATE_ID_MAX),
        ),
        ("WxBindReq", "openid", "maxLength", lim(wx::WX_OPENID_MAX)),
        (
            "WxConfigReq",
            "server_token",
            "maxLength",
            lim(wx::WX_SERVER_TOKEN_MAX),
        ),
        (
            "DictSaveReq",
            "name",
            "maxLength",
            lim(services::system::dict::DICT_NAME_MAX),
        ),
    ]);
    out
}

/// The property's own schema, through a `oneOf` with null (an `Option` of a referenced type).
fn prop<'a>(all: &'a serde_json::Map<String, Value>, schema: &str, field: &str) -> &'a Value {
    let p = &all[schema]["properties"][field];
    assert!(p.is_object(), "{schema}.{field} is not in the document");
    p
}

#[test]
fn every_declared_bound_is_the_constant_the_server_enforces() {
    let all = schemas();
    let table = mirrored();
    for (schema, field, key, want) in &table {
        let have = prop(&all, schema, field)[*key].as_i64();
        assert_eq!(have, Some(*want), "{schema}.{field}.{key}");
    }
    // A bound declared anywhere else must be added to the table above (1 and 0 are the id and
    // count floors, and minLength 1 the "required, not blank" rule: nothing to mirror).
    for name in request_schemas() {
        let Some(props) = all[&name]["properties"].as_object() else {
            continue;
        };
        for (field, p) in props {
            for key in ["maximum", "minimum", "maxLength", "minLength", "maxItems"] {
                let Some(v) = p[key].as_i64() else { continue };
                let trivial = matches!((key, v), ("minimum", 0 | 1) | ("minLength", 1));
                let listed = table
                    .iter()
                    .any(|(s, f, k, _)| *s == name && f == field && *k == key);
                assert!(
                    trivial || listed,
                    "{name}.{field}.{key} = {v} mirrors no server constant: add it to mirrored()"
                );
            }
        }
    }
}

fn enum_of(all: &serde_json::Map<String, Value>, name: &str) -> Vec<String> {
    all[name]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} is no enum"))
        .iter()
        .map(|v| v.as_str().expect("a string value").to_string())
        .collect()
}

#[test]
fn declared_enums_are_the_sets_the_server_accepts() {
    let all = schemas();
    // The platform codes: the domain's one list (`bp`, SPEC's prefix for the shop, parses but is
    // never written, so it is not listed).
    let codes: Vec<&str> = platforms::Platform::ALL.iter().map(|p| p.code()).collect();
    assert_eq!(enum_of(&all, "Platform"), codes);
    for c in enum_of(&all, "Platform") {
        assert!(services::platform::platform(&c).is_ok(), "{c}");
    }
    assert!(services::platform::platform("bp").is_ok());
    let mut task = codes.clone();
    task.push("mixed");
    assert_eq!(enum_of(&all, "TaskPlatform"), task);
    assert_eq!(enum_of(&all, "PlatformFilter")[0], "");
    assert_eq!(enum_of(&all, "PlatformFilter")[1..].len(), codes.len());
    for m in enum_of(&all, "TimeMode") {
        assert!(domain::matrix::TimeMode::parse(&m).is_some(), "{m}");
    }
    assert_eq!(enum_of(&all, "TimeMode").len(), 3);
    assert_eq!(enum_of(&all, "AiClipKind"), domain::clip::one_touch::KINDS);
    assert_eq!(
        enum_of(&all, "MountType"),
        ["none", "poi", "mini_program", "official", "product"]
    );
    let pools: Vec<String> = domain::activities::PoolKind::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect();
    assert_eq!(enum_of(&all, "PoolKind"), pools);
    assert_eq!(enum_of(&all, "DyOnly"), ["dy"]);
    assert_eq!(enum_of(&all, "SearchPlatform"), ["dy", "ks"]);
    assert_eq!(enum_of(&all, "FileKind"), ["audio", "video", "image"]);
    assert_eq!(
        enum_of(&all, "SmsScene"),
        domain::system::sms::SmsScene::ALL.map(|s| s.as_str())
    );
    for m in enum_of(&all, "RuleMatchMode") {
        assert!(domain::engagement::MatchMode::parse(&m).is_some(), "{m}");
    }
    assert_eq!(enum_of(&all, "RuleMatchMode").len(), 3);
    assert_eq!(enum_of(&all, "RuleChannel"), ["comment", "message"]);
    for w in enum_of(&all, "ActivityWho") {
        assert!(domain::activities::Who::parse(&w).is_some(), "{w}");
    }
    for k in enum_of(&all, "PrizeKindCode") {
        assert!(domain::activities::PrizeKind::parse(&k).is_some(), "{k}");
    }
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        enum_of(&all, "CourseCategory"),
        names(&domain::content::Category::ALL.map(|c| c.as_str()))
    );
    for k in enum_of(&all, "CourseBodyKind") {
        assert!(domain::content::Kind::parse(&k).is_some(), "{k}");
    }
    assert_eq!(enum_of(&all, "CourseBodyKind").len(), 2);
    assert_eq!(
        enum_of(&all, "LexKindCode"),
        names(&domain::seo::LexKind::ALL.map(|k| k.as_str()))
    );
    for k in enum_of(&all, "LexKindCode") {
        assert!(services::seo::library::lex_kind(&k).is_ok(), "{k}");
    }
    // seo::benchmark takes Douyin accounts only; material groups are shot or voice-over groups
    assert_eq!(enum_of(&all, "DyOnly"), ["dy"]);
    assert_eq!(enum_of(&all, "NewGroupKind"), ["video", "broadcast"]);
    for m in enum_of(&all, "SliceMode") {
        assert!(domain::clip::slicing::Mode::parse(&m).is_some(), "{m}");
    }
    assert_eq!(enum_of(&all, "SliceMode").len(), 2);
}

#[test]
fn query_enums_are_the_sets_the_server_accepts() {
    let all = schemas();
    let today = domain::matrix::parse_day("2026-01-31").expect("a day");
    for span in enum_of(&all, "ReportSpan") {
        let r = domain::reports::range(&span, "2026-01-01", "2026-01-31", today);
        assert!(r.is_ok(), "{span}");
    }
    for p in enum_of(&all, "ReportPlatform") {
        assert!(domain::reports::platform(&p).is_ok(), "{p}");
    }
    assert_eq!(enum_of(&all, "RankSort"), services::reports::RANK_SORTS);
    assert_eq!(
        enum_of(&all, "AttributionDimension"),
        domain::reports::Dimension::ALL.map(|d| d.as_str())
    );
    // the export's `match` on `report` (crates/api/src/areas/reports)
    assert_eq!(
        enum_of(&all, "ReportKind"),
        [
            "overview",
            "accounts",
            "videos",
            "attribution",
            "delivery",
            "staff"
        ]
    );
    for f in enum_of(&all, "ExportFormat") {
        assert!(api::download::format_of(Some(&f)).is_ok(), "{f}");
    }
    use domain::content::hotlists::HotPage;
    for (name, page) in [
        ("MusicBoard", HotPage::Music),
        ("KeywordsBoard", HotPage::Keywords),
        ("VideoBoard", HotPage::Video),
        ("TopicBoard", HotPage::Topic),
        ("LifeBoard", HotPage::Life),
        ("DoyenBoard", HotPage::Doyen),
    ] {
        assert_eq!(enum_of(&all, name), page.boards(), "{name}");
    }
    // the `match` on `field` in asr_modify (crates/api/src/areas/materials/asr.rs)
    assert_eq!(enum_of(&all, "AsrField"), ["start", "end", "content"]);
}

#[test]
fn list_query_bounds_are_the_list_engines() {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    let op = &doc["paths"]["/clip.merchant_ai_clip/index"]["get"];
    let param = |name: &str| {
        op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == name)
            .map(|p| p["schema"].clone())
            .unwrap_or_else(|| panic!("no {name}"))
    };
    use services::ListQuery;
    assert_eq!(param("page")["minimum"].as_i64(), Some(1));
    assert_eq!(param("page")["maximum"].as_i64(), Some(ListQuery::MAX_PAGE));
    assert_eq!(param("limit")["minimum"].as_i64(), Some(1));
    assert_eq!(
        param("limit")["maximum"].as_i64(),
        Some(ListQuery::MAX_LIMIT)
    );
}

/// (path, query parameter, the enum schema it takes): the query parameters the server checks
/// against a fixed set.
fn query_enums() -> Vec<(String, &'static str, &'static str)> {
    let schema_of = |param: &str| match param {
        "span" => "ReportSpan",
        "platform" => "ReportPlatform",
        "sort" => "RankSort",
        "dimension" => "AttributionDimension",
        "report" => "ReportKind",
        _ => "ExportFormat",
    };
    let mut out = vec![];
    for (path, params) in [
        (
            "/common.merchant_report/overview",
            &["span", "platform"][..],
        ),
        (
            "/common.merchant_report/accounts",
            &["span", "platform", "sort"],
        ),
        (
            "/common.merchant_report/videos",
            &["span", "platform", "sort"],
        ),
        ("/externalApi/getUserVideo", &["span", "sort"]),
        (
            "/common.merchant_report/attribution",
            &["dimension", "span", "platform"],
        ),
        ("/common.merchant_report/delivery", &["span", "platform"]),
        ("/common.merchant_report/staff", &["span"]),
        ("/common.merchant_report/export", &["report", "format"]),
    ] {
        for p in params {
            out.push((path.to_string(), *p, schema_of(p)));
        }
    }
    for (page, board) in [
        ("music", "MusicBoard"),
        ("keywords", "KeywordsBoard"),
        ("video", "VideoBoard"),
        ("topic", "TopicBoard"),
        ("life", "LifeBoard"),
        ("doyen", "DoyenBoard"),
    ] {
        out.push((format!("/content.hot_list/{page}_index"), "board", board));
    }
    out.push((
        "/index/getIndexCourseList".into(),
        "category",
        "CourseCategory",
    ));
    out.push((
        "/media.merchant_much_resource/asr_modify".into(),
        "field",
        "AsrField",
    ));
    out.push(("/index/dashboard".into(), "days", "DaySpan"));
    out
}

/// A day chart's span is a number of two values: the document lists them, as integers, and every
/// place taking one refers to that list.
#[test]
fn day_spans_are_the_ones_the_server_accepts() {
    let all = schemas();
    let spans: Vec<i64> = all["DaySpan"]["enum"]
        .as_array()
        .expect("DaySpan lists its values")
        .iter()
        .map(|v| v.as_i64().expect("an integer span"))
        .collect();
    assert_eq!(spans, domain::reports::DAY_SPANS);
    assert_eq!(all["DaySpan"]["type"], "integer");
    let days = prop(&all, "StatsReq", "days").to_string();
    assert!(days.contains("#/components/schemas/DaySpan"), "{days}");
}

#[test]
fn checked_query_parameters_declare_their_set() {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    for (path, name, schema) in query_enums() {
        let ops = doc["paths"][&path]
            .as_object()
            .unwrap_or_else(|| panic!("{path} is not in the document"));
        for (method, op) in ops {
            let p = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|p| p["name"] == *name && p["in"] == "query")
                .unwrap_or_else(|| panic!("{method} {path} has no query parameter {name}"));
            let text = p["schema"].to_string();
            assert!(
                text.contains(&format!("#/components/schemas/{schema}\"")),
                "{method} {path} ?{name} does not take {schema}: {text}"
            );
        }
    }
}

/// (schema, fields the server refuses when missing or blank, on every operation taking the schema).
const REQUIRED: &[(&str, &[&str])] = &[
    ("IdReq", &["id"]),
    (
        "TaskReq",
        &[
            "name",
            "time_mode",
            "start_date",
            "daily_quantity",
            "days",
            "account_ids",
        ],
    ),
    ("RenameReq", &["id", "name"]),
    ("AiClipReq", &["topic"]),
    ("AiDubReq", &["text"]),
    ("ProjectSaveReq", &["name"]),
    ("FileTypeAddReq", &["kind", "name"]),
    ("TagReq", &["name", "platform", "pool_kind", "pool_id"]),
    ("WordReq", &["platform", "word"]),
    ("AppReq", &["platform"]),
    ("AccountGroupReq", &["name"]),
    ("RoleReq", &["name"]),
    ("LoginReq", &["login_type", "agree"]),
    (
        "RegisterReq",
        &[
            "merchant_name",
            "username",
            "mobile",
            "code",
            "password",
            "password_confirm",
            "agree",
        ],
    ),
    (
        "ResetPasswordReq",
        &["mobile", "code", "password", "password_confirm"],
    ),
    ("SmsReq", &["mobile", "scene"]),
    (
        "PasswordReq",
        &["old_password", "password", "password_confirm"],
    ),
    ("ProfileReq", &["nickname"]),
    ("StaffAddReq", &["username", "password"]),
    (
        "ActivityReq",
        &[
            "name",
            "starts_at",
            "ends_at",
            "who",
            "per_person",
            "per_day",
            "prizes",
        ],
    ),
    ("PrizeReq", &["name", "kind"]),
    ("RuleReq", &["name", "match_mode", "keywords", "replies"]),
    (
        "TimeReq",
        &["id", "time_mode", "start_date", "daily_quantity", "days"],
    ),
    ("CourseReq", &["category", "title", "body_kind"]),
    ("BannerReq", &["title", "image"]),
    ("VersionReq", &["version", "content"]),
    ("AiVoiceLikeReq", &["voice"]),
    ("AiCloneReq", &["name", "resource_id"]),
    ("AiteReq", &["platform", "nickname"]),
    ("BjhReq", &["app_id", "app_token"]),
    ("PoiReq", &["keyword"]),
    ("CategoryReq", &["name"]),
    ("WordsReq", &["category_id", "words"]),
    ("WordEditReq", &["id", "word"]),
    ("TitlesAddReq", &["titles"]),
    ("TitleEditReq", &["id", "title"]),
    ("LexAddReq", &["kind", "words"]),
    ("CollectReq", &["platform", "word"]),
    ("ProviderReq", &["base_url", "model"]),
    ("AddReq", &["link"]),
    ("GroupAdd", &["name"]),
    ("ClassifyAdd", &["name"]),
    ("ProjectReq", &["name", "mode", "group_id"]),
    ("RunReq", &["merchant_id", "resource_id"]),
    ("PrivateSendReq", &["account_id", "conversation_id"]),
    ("QuickReplyReq", &["text"]),
    ("WxConfigReq", &["app_id", "template_id"]),
    ("WxBindReq", &["user_id"]),
    ("MerchantAdd", &["name", "username", "password"]),
    ("DictSaveReq", &["name"]),
    ("ProxyReq", &["proxyToken"]),
    ("RedeemReq", &["code"]),
    ("StatsReq", &["id"]),
    ("TitlesReq", &["tag_id", "titles"]),
    ("TitleReq", &["id", "title"]),
];

#[test]
fn fields_the_server_refuses_when_missing_are_required() {
    let all = schemas();
    for (schema, fields) in REQUIRED {
        let required: Vec<&str> = all[*schema]["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for f in *fields {
            assert!(required.contains(f), "{schema}.{f} is not required");
            // a required field with a default would tell a client it may leave it out
            assert!(
                prop(&all, schema, f).get("default").is_none(),
                "{schema}.{f} declares a default"
            );
        }
    }
}

/// Request schemas with genuinely nothing to declare, each with the reason (sorted by name). Every other request
/// schema declares at least one required field, enum or bound.
const DECLARES_NOTHING: &[(&str, &str)] = &[
    (
        "ManualReq",
        "either `id` (one item) or `task_id` (every waiting and failed item of a task)",
    ),
    (
        "MusicSaveReq",
        "either `id` or `system_music_id` (a choice between optional fields); nothing else is checked",
    ),
    (
        "SyncReq",
        "`account_id` is optional (none: all of the merchant's accounts)",
    ),
];

/// Does this property declare an enum or a bound (itself, through a `oneOf` with null, or its items)?
fn declares(all: &serde_json::Map<String, Value>, p: &Value) -> bool {
    let mut parts = vec![p];
    for key in ["oneOf", "allOf", "anyOf"] {
        parts.extend(p[key].as_array().into_iter().flatten());
    }
    parts.extend(p.get("items"));
    parts.iter().any(|q| {
        let bound = [
            "enum",
            "maximum",
            "minimum",
            "maxLength",
            "minLength",
            "maxItems",
            "minItems",
        ]
        .iter()
        .any(|k| q.get(*k).is_some());
        let named_enum = q["$ref"]
            .as_str()
            .map(|r| all[r.trim_start_matches("#/components/schemas/")]["enum"].is_array())
            .unwrap_or(false);
        bound || named_enum
    })
}

#[test]
fn every_request_schema_declares_what_the_server_enforces() {
    let all = schemas();
    let mut silent = vec![];
    for name in request_schemas() {
        let s = &all[&name];
        let required = s["required"].as_array().is_some_and(|r| !r.is_empty());
        let any = s["properties"]
            .as_object()
            .is_some_and(|props| props.values().any(|p| declares(&all, p)));
        if !(required || any) {
            silent.push(name);
        }
    }
    let allowed: Vec<String> = DECLARES_NOTHING
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(
        silent, allowed,
        "request schemas declaring no required field, enum or bound (declare what the server \
         enforces, or list the schema in DECLARES_NOTHING with the reason)"
    );
}
