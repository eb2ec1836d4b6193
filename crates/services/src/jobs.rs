//! The job handlers: which use case runs each `domain::jobs::Job`, given its payload.

use crate::app::App;
use domain::jobs::{Job, JobKind};
use std::sync::Arc;
use store::jobs::{JobCtx, JobError, Registry};

/// A handler for every job kind: the match on [`Job`] is exhaustive, so a new kind does not build
/// without one, and each handler gets its own payload type.
pub fn registry(app: &App) -> Registry {
    let handlers = Arc::new(Handlers {
        app: app.clone(),
        one_touch: Arc::new(crate::clip::one_touch::Deps {
            storage: app.storage.clone(),
            ai: app.ai.clone(),
            sealer: app.hub.sealer.clone(),
        }),
        intellect: Arc::new(crate::clip::intellect::Deps {
            storage: app.storage.clone(),
            asr_dir: app.config.asr_dir(),
        }),
    });
    let mut r = Registry::default();
    for kind in JobKind::ALL {
        let h = handlers.clone();
        r.register(kind, move |ctx, job| {
            let h = h.clone();
            async move { h.run(ctx, job).await }
        });
    }
    r
}

struct Handlers {
    app: App,
    one_touch: Arc<crate::clip::one_touch::Deps>,
    intellect: Arc<crate::clip::intellect::Deps>,
}

impl Handlers {
    async fn run(&self, ctx: JobCtx, job: Job) -> Result<(), JobError> {
        use crate::{clip, materials, matrix::publish};
        let hub = self.app.hub.clone();
        let storage = self.app.storage.clone();
        // Handlers with a row to fail run their work through `ctx.attempt` themselves; the
        // others are wrapped here, so a job given up never runs its work.
        match job {
            Job::MatrixSync(p) => ctx.attempt(publish::run_sync(p, hub)).await,
            Job::MatrixTokenRefresh(p) => ctx.attempt(publish::run_refresh(p, hub)).await,
            Job::PublishItem(p) => publish::run_item(ctx, p, hub).await,
            Job::PublishReview(p) => ctx.attempt(publish::run_review(p, hub)).await,
            Job::ClipRender(p) => clip::render::run(ctx, p, storage).await,
            Job::ClipSlice(p) => clip::slice::run(ctx, p, storage).await,
            Job::MediaAsr(p) => {
                materials::asr::run(ctx, p, storage, self.app.config.asr_dir()).await
            }
            Job::MediaIngest(p) => materials::ingest::run(ctx, p, storage).await,
            Job::MaintenanceCleanup(_) => {
                let c = ctx.clone();
                ctx.attempt(crate::system::maintenance::cleanup(c, storage))
                    .await
            }
            Job::SeoBenchmarkSync(p) => {
                let c = ctx.clone();
                ctx.attempt(crate::seo::benchmark::run(c, p, hub)).await
            }
            Job::ContentHotlistSync(p) => ctx.attempt(crate::content::hotlists::run(p, hub)).await,
            Job::EngagementSync(p) => {
                ctx.attempt(crate::engagement::comments::run_sync(p, hub))
                    .await
            }
            Job::EngagementAutoReply(p) => {
                ctx.attempt(crate::engagement::rules::run_auto_reply(p, hub))
                    .await
            }
            Job::EngagementLeadNotify(p) => {
                ctx.attempt(crate::engagement::notify::run(p, hub)).await
            }
            Job::Tts(p) => crate::ai::run(ctx, p, storage, self.app.ai.clone()).await,
            Job::ClipOneTouch(p) => clip::one_touch::run(ctx, p, self.one_touch.clone()).await,
            Job::PlatformCanary(p) => ctx.attempt(crate::matrix::canary::run_job(p, hub)).await,
            Job::ClipIntellect(p) => clip::intellect::run(ctx, p, self.intellect.clone()).await,
        }
    }
}
