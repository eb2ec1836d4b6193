//! AI-content labels (issue 39; rules `domain::clip::aigc`, bytes `media::aigc`), a shared piece:
//! the operator's provider (name and code, set once under System → AI provider), what of a finished
//! video the product generated (its provenance, recorded when it renders), the labels a render or a
//! voice-over gets from it, and the declaration `auto` resolves to.

use crate::error::{ApiError, ApiResult};
use domain::clip::ProjectConfig;
use domain::clip::aigc::{AigcMeta, AigcProvider, PROVIDER_KEY, Provenance};
use domain::i18n::Msg;
use domain::matrix::ContentDeclaration;
use store::Db;

/// The provider the implicit labels name (none saved: the default producer).
pub async fn provider(db: &Db) -> ApiResult<AigcProvider> {
    Ok(db
        .setting(PROVIDER_KEY)
        .await?
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default())
}

/// Saves the provider (the operator's; checked: it goes into every generated file's metadata).
pub async fn save_provider(db: &Db, p: &AigcProvider) -> ApiResult<AigcProvider> {
    let p = p.checked().map_err(|field| {
        ApiError::invalid_with(
            field,
            Msg::InvalidValue,
            vec![(
                "reason",
                format!(
                    "at most {} characters, no control characters",
                    domain::clip::aigc::PROVIDER_MAX_CHARS
                ),
            )],
        )
    })?;
    db.set_setting(PROVIDER_KEY, &serde_json::to_string(&p).unwrap_or_default())
        .await?;
    Ok(p)
}

/// The implicit label's JSON for content `produce_id` of merchant `mid` (`m<mid>-<id>`: unique in
/// the install, whatever the kind).
pub async fn meta(db: &Db, mid: i64, produce_id: &str) -> ApiResult<String> {
    let p = provider(db).await?;
    Ok(AigcMeta::generated(&p.producer(), &format!("m{mid}-{produce_id}")).json())
}

/// What of a variant of `project` (settings `cfg`) the product generates: one-touch's assembly (mode
/// `ai`) and its script's writer, and the voice-over this variant takes (a TTS material's own
/// provenance).
pub async fn variant_provenance(
    db: &Db,
    project: &store::clip::Project,
    cfg: &ProjectConfig,
    variant_id: i64,
) -> sqlx::Result<Provenance> {
    let mut p = Provenance::default();
    if project.mode == domain::clip::ProjectMode::Ai {
        p.one_touch = true;
        if let Some(row) = store::clip::one_touch::of_project(db, project.id).await?
            && let Some(row) = store::clip::one_touch::get_any(db, row).await?
            && !row.writer.is_empty()
        {
            p.writer = Some(crate::writer::kept(&row.writer).0.code());
        }
    }
    if let Some(voice) = cfg.voice.as_ref().and_then(|a| a.track_for(variant_id)) {
        let own = store::materials::provenance(db, project.merchant_id, voice).await?;
        p = p.merge(&Provenance::parse(&own));
    }
    Ok(p)
}

/// The declaration a post carries: the task's, or (`auto`) what its video's provenance says.
pub fn declared(chosen: ContentDeclaration, p: &Provenance) -> ContentDeclaration {
    chosen.resolve(p.is_generated())
}
