//! Duplicate risk of finished videos: each variant's signature is assembled when it renders (its clips'
//! signatures over their trim windows, the sound bed's fingerprint, the text it burns) and compared
//! with its siblings and everything the merchant published; the scores live on the variants
//! (`store::clip::risk`), the model in `domain::clip::risk`, the measuring in `media::signature`.

use anyhow::Context;
use domain::clip::risk::{Against, Likeness, Reason, Risk, shared_clips};
use media::signature::{self as sig, Signature};
use std::path::Path;
use store::Db;
use store::clip::risk as db;
use store::materials as mat;

/// A material's signature: the stored one, or one made from its mezzanine now (materials ingested
/// before signatures existed) and stored. `None` for a material without a mezzanine.
pub async fn material(
    d: &Db,
    storage: &media::Storage,
    m: &mat::MediaFile,
) -> anyhow::Result<Option<Signature>> {
    if let Some(s) = db::media_signature(d, m.merchant_id, m.id)
        .await?
        .and_then(|b| Signature::from_bytes(&b))
    {
        return Ok(Some(s));
    }
    if m.mezzanine_key.is_empty() {
        return Ok(None);
    }
    let file = storage.local_copy(&m.mezzanine_key).await?;
    Ok(Some(sign_file(d, m.merchant_id, m.id, file.path()).await?))
}

/// Makes and stores the signature of a material's mezzanine at `path` (ingest, slicing).
pub async fn sign_file(
    d: &Db,
    merchant_id: i64,
    media_id: i64,
    path: &Path,
) -> anyhow::Result<Signature> {
    let s = sig::of_file(path).await?;
    db::put_media_signature(d, merchant_id, media_id, &s.to_bytes()).await?;
    Ok(s)
}

/// Two clips are look-alikes when at least this share of each one's pictures is seen in the other:
/// the same footage uploaded twice (renamed, re-encoded, mirrored), which a check sees as one clip.
pub const TWIN_VISUAL: f64 = 0.8;

/// Each pool's clips sorted into look-alikes (`planner::twins_of`), so the planner counts a re-upload
/// as the clip it copies: one read of the signatures per group; clips without one (not yet signed,
/// images) look like none. Lengths more than a second apart are never twins (no comparison made).
pub async fn twins(
    d: &Db,
    merchant_id: i64,
    pools: &[super::projects::Pool],
) -> sqlx::Result<Vec<Vec<usize>>> {
    let mut out = Vec::with_capacity(pools.len());
    for (_, clips) in pools {
        if clips.len() < 2 {
            out.push((0..clips.len()).collect());
            continue;
        }
        let ids: Vec<i64> = clips.iter().map(|m| m.id).collect();
        let mut signed: std::collections::HashMap<i64, Signature> =
            db::media_signatures(d, merchant_id, &ids)
                .await?
                .into_iter()
                .filter_map(|(id, b)| Some((id, Signature::from_bytes(&b)?)))
                .collect();
        let sigs: Vec<Option<Signature>> = ids.iter().map(|id| signed.remove(id)).collect();
        out.push(domain::clip::planner::twins_of(clips.len(), |a, b| {
            let (Some(x), Some(y)) = (&sigs[a], &sigs[b]) else {
                return false;
            };
            (clips[a].duration_ms - clips[b].duration_ms).abs() <= 1000
                && sig::visual(&x.frames, &y.frames) >= TWIN_VISUAL
                && sig::visual(&y.frames, &x.frames) >= TWIN_VISUAL
        }));
    }
    Ok(out)
}

/// What a finished video is measured by.
#[derive(Debug, Clone)]
pub struct Measured {
    pub signature: Signature,
    /// Its clips' material ids in order.
    pub clips: Vec<i64>,
    /// The text it shows, one line each.
    pub text: String,
    /// The second its cover is taken from (-1: none).
    pub cover_s: i64,
}

/// How alike `a` is to `b`.
pub fn likeness(a: &Measured, b: &Measured) -> Likeness {
    sig::likeness(
        (&a.signature, &a.text, a.cover_s),
        (&b.signature, &b.text, b.cover_s),
    )
}

fn measured(s: &db::VariantSignature) -> Option<Measured> {
    Some(Measured {
        signature: Signature::from_bytes(&s.signature)?,
        clips: s.clip_ids(),
        text: s.text.clone(),
        cover_s: s.cover_s,
    })
}

/// Records a finished video's signature and measures it against its siblings (raising theirs too: a
/// sibling made later can only make an earlier one riskier). Cheap (the siblings are few): a render
/// does it before it shows the video done. Returns the sibling reason.
pub async fn measure_siblings(
    d: &Db,
    merchant_id: i64,
    variant_id: i64,
    project_id: i64,
    me: &Measured,
) -> anyhow::Result<Option<Reason>> {
    db::put_variant_signature(
        d,
        merchant_id,
        &db::VariantSignature {
            variant_id,
            project_id,
            signature: me.signature.to_bytes(),
            clips: serde_json::to_string(&me.clips)?,
            text: me.text.clone(),
            cover_s: me.cover_s,
        },
    )
    .await?;
    // Imported videos share no project: they are not each other's siblings.
    if project_id == store::clip::IMPORTED {
        return Ok(None);
    }
    let probe = sig::Probe::new(&me.signature, &me.text, me.cover_s);
    let mut best: Option<Reason> = None;
    for s in db::project_signatures(d, merchant_id, project_id).await? {
        if s.variant_id == variant_id {
            continue;
        }
        let Some(other) = measured(&s) else { continue };
        let l = probe.likeness((&other.signature, &other.text, other.cover_s));
        let mut mine = Reason::new(Against::Sibling, s.variant_id, &l);
        mine.shared_clips = Some(shared_clips(&me.clips, &other.clips));
        let mut theirs = Reason::new(Against::Sibling, variant_id, &likeness(&other, me));
        theirs.shared_clips = Some(shared_clips(&other.clips, &me.clips));
        db::raise_sibling(d, s.variant_id, theirs.score, &json(&theirs)).await?;
        if best.as_ref().is_none_or(|b| mine.score > b.score) {
            best = Some(mine);
        }
    }
    raise(d, variant_id, best.clone(), Against::Sibling).await?;
    Ok(best)
}

/// Measures a finished video against everything the merchant published or scheduled (all its
/// accounts): the longer part (~30 ms per 1,000 videos, bench/risk), which a render does after it shows the video.
pub async fn measure_published(
    d: &Db,
    merchant_id: i64,
    variant_id: i64,
    me: &Measured,
) -> anyhow::Result<Option<Reason>> {
    let itself = format!("v:{variant_id}");
    let published = db::published(d, merchant_id, None, &itself).await?;
    let best = most_alike(Against::Published, me, &published, &itself);
    raise(d, variant_id, best.clone(), Against::Published).await?;
    Ok(best)
}

/// Both measures at once (an imported video): its risk as measured now.
pub async fn measure(
    d: &Db,
    merchant_id: i64,
    variant_id: i64,
    project_id: i64,
    me: &Measured,
) -> anyhow::Result<Risk> {
    let sibling = measure_siblings(d, merchant_id, variant_id, project_id, me).await?;
    let published = measure_published(d, merchant_id, variant_id, me).await?;
    Ok(Risk::of(sibling.into_iter().chain(published)))
}

/// The most alike of `published` (read once for several videos, e.g. one account's history), but
/// the video itself.
pub fn most_alike(
    kind: Against,
    me: &Measured,
    published: &[db::Published],
    itself: &str,
) -> Option<Reason> {
    let probe = sig::Probe::new(&me.signature, &me.text, me.cover_s);
    let mut best: Option<Reason> = None;
    for p in published.iter().filter(|p| p.video_key != itself) {
        let Some(signature) = Signature::from_bytes(&p.signature) else {
            continue;
        };
        let l = probe.likeness((&signature, &p.text, p.cover_s));
        let r = Reason::new(kind, p.variant_id, &l);
        if best.as_ref().is_none_or(|b| r.score > b.score) {
            best = Some(r);
        }
    }
    best
}

async fn raise(d: &Db, variant_id: i64, r: Option<Reason>, kind: Against) -> anyhow::Result<()> {
    let (score, reason) = match &r {
        Some(r) => (r.score, json(r)),
        None => (0, String::new()),
    };
    match kind {
        Against::Sibling => db::raise_sibling(d, variant_id, score, &reason).await,
        _ => db::raise_published(d, variant_id, score, &reason).await,
    }
    .context("recording a duplicate risk")
}

fn json(r: &Reason) -> String {
    serde_json::to_string(r).unwrap_or_default()
}

/// What a release key (`v:<variant id>`, `m:<material id>`) of the merchant's is measured by, when it
/// was measured.
pub async fn of_key(d: &Db, merchant_id: i64, key: &str) -> anyhow::Result<Option<Measured>> {
    let id = |p: &str| key.strip_prefix(p).and_then(|n| n.parse::<i64>().ok());
    if let Some(v) = id("v:") {
        return Ok(db::variant_signature(d, merchant_id, v)
            .await?
            .as_ref()
            .and_then(measured));
    }
    if let Some(m) = id("m:") {
        return Ok(db::media_signature(d, merchant_id, m)
            .await?
            .and_then(|b| Signature::from_bytes(&b))
            .map(|signature| Measured {
                signature,
                clips: vec![m],
                text: String::new(),
                cover_s: 1,
            }));
    }
    Ok(None)
}

/// A render that kept nothing (cancelled meanwhile) leaves no signature to compare with.
pub async fn forget(d: &Db, variant_id: i64) -> sqlx::Result<()> {
    db::forget_variant_signature(d, variant_id).await
}

/// A finished video's risk reasons as stored on its row.
pub fn reasons(v: &store::clip::Variant) -> Vec<Reason> {
    [&v.risk_sibling_reason, &v.risk_published_reason]
        .into_iter()
        .filter_map(|s| serde_json::from_str::<Reason>(s).ok())
        .collect()
}
