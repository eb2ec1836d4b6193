//! The job kinds and their handlers: which use case runs each kind of `domain::jobs::JobKind`.

use crate::app::App;
use domain::jobs::JobKind;
use store::jobs::Registry;

/// A handler for every job kind: the match is exhaustive, so a new kind does not build without one.
pub fn registry(app: &App) -> Registry {
    use crate::{clip, materials, matrix::publish};
    let mut r = Registry::default();
    for kind in JobKind::ALL {
        let hub = app.hub.clone();
        let storage = app.storage.clone();
        match kind {
            JobKind::MatrixSync => r.register(kind, move |ctx| publish::run_sync(ctx, hub.clone())),
            JobKind::MatrixTokenRefresh => {
                r.register(kind, move |ctx| publish::run_refresh(ctx, hub.clone()))
            }
            JobKind::PublishItem => {
                r.register(kind, move |ctx| publish::run_item(ctx, hub.clone()))
            }
            JobKind::PublishReview => {
                r.register(kind, move |ctx| publish::run_review(ctx, hub.clone()))
            }
            JobKind::ClipRender => {
                r.register(kind, move |ctx| clip::render::run(ctx, storage.clone()))
            }
            JobKind::ClipSlice => {
                r.register(kind, move |ctx| clip::slice::run(ctx, storage.clone()))
            }
            JobKind::MediaAsr => {
                let asr_dir = app.config.asr_dir();
                r.register(kind, move |ctx| {
                    materials::asr::run(ctx, storage.clone(), asr_dir.clone())
                })
            }
            JobKind::MediaIngest => r.register(kind, move |ctx| {
                materials::ingest::run(ctx, storage.clone())
            }),
            JobKind::MaintenanceCleanup => r.register(kind, move |ctx| {
                crate::system::maintenance::cleanup(ctx, storage.clone())
            }),
            JobKind::SeoBenchmarkSync => r.register(kind, move |ctx| {
                crate::seo::benchmark::run(ctx, hub.clone())
            }),
            JobKind::ContentHotlistSync => r.register(kind, move |ctx| {
                crate::content::hotlists::run(ctx, hub.clone())
            }),
            JobKind::EngagementSync => r.register(kind, move |ctx| {
                crate::engagement::comments::run_sync(ctx, hub.clone())
            }),
            JobKind::EngagementAutoReply => r.register(kind, move |ctx| {
                crate::engagement::rules::run_auto_reply(ctx, hub.clone())
            }),
            JobKind::EngagementLeadNotify => r.register(kind, move |ctx| {
                crate::engagement::notify::run(ctx, hub.clone())
            }),
            JobKind::Tts => {
                let ai = app.ai.clone();
                r.register(kind, move |ctx| {
                    crate::ai::run(ctx, storage.clone(), ai.clone())
                })
            }
            JobKind::ClipOneTouch => {
                let deps = std::sync::Arc::new(clip::one_touch::Deps {
                    storage: storage.clone(),
                    ai: app.ai.clone(),
                    sealer: app.hub.sealer.clone(),
                });
                r.register(kind, move |ctx| clip::one_touch::run(ctx, deps.clone()))
            }
            JobKind::ClipIntellect => {
                let deps = std::sync::Arc::new(clip::intellect::Deps {
                    storage: storage.clone(),
                    asr_dir: app.config.asr_dir(),
                });
                r.register(kind, move |ctx| clip::intellect::run(ctx, deps.clone()))
            }
        }
    }
    r
}
