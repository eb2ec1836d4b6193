//! The operator's built-in music set (merchants browse it and copy tracks into their own music
//! library), and the "save into library" calls of the clip module.

use super::upload;
use super::views::SystemMusic;
use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::files;
use crate::state::AppState;
use axum::extract::{Multipart, State};
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::materials::music as uc;
use utoipa::ToSchema;

/// A built-in track with its signed link.
#[derive(Debug, Serialize, ToSchema)]
pub struct MusicView {
    #[serde(flatten)]
    pub track: SystemMusic,
    pub src: String,
}

fn view(st: &AppState, m: &uc::SystemMusic, lang: Lang) -> MusicView {
    MusicView {
        track: SystemMusic {
            name: uc::shown_name(m, lang),
            ..SystemMusic::from(m.clone())
        },
        src: files::url(st, m.id, "system"),
    }
}

#[derive(Debug, Deserialize)]
pub struct MusicQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
}

async fn list(st: &AppState, q: MusicQuery, lang: Lang) -> Answer<Page<MusicView>> {
    let q = q
        .list
        .with_filter("name", q.name.as_deref(), "include")
        .with_filter("category", q.category.as_deref(), "=");
    let (rows, total) = uc::system_music(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.iter().map(|m| view(st, m, lang)).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/media.merchant_producing_upfile/system_music_index", tag = "materials", responses((status = 200, body = Reply<Page<MusicView>>, description = "the built-in music set")))]
pub async fn system_index(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<MusicQuery>,
) -> Answer<Page<MusicView>> {
    list(&st, q, lang).await
}

#[utoipa::path(method(get, post), path = "/system/music/index", tag = "system", responses((status = 200, body = Reply<Page<MusicView>>, description = "the built-in music set")))]
pub async fn operator_index(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<MusicQuery>,
) -> Answer<Page<MusicView>> {
    list(&st, q, lang).await
}

#[utoipa::path(post, path = "/system/music/add", tag = "system", request_body(content_type = "multipart/form-data", description = "name, category, file (audio)"), responses((status = 200, body = Reply<MusicView>)))]
pub async fn operator_add(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    mp: Multipart,
) -> Answer<MusicView> {
    let (rec, _, fields) = upload::receive(&st, mp, |_| Ok(uc::SYSTEM)).await?;
    let category = fields.get("category").cloned().unwrap_or_default();
    let row = uc::add_system(
        &st.db,
        &st.storage,
        rec,
        fields.get("name").map(String::as_str),
        &category,
    )
    .await?;
    Ok(reply(view(&st, &row, lang)))
}

#[utoipa::path(post, path = "/system/music/delete", tag = "system", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "deleted (copies in merchants' libraries stay)")))]
pub async fn operator_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_system(&st.db, &st.storage, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = MusicSaveReq)]
pub struct SaveReq {
    /// A file of the caller's (e.g. from the upload library) to keep in this library…
    #[serde(default)]
    pub id: Option<i64>,
    /// …or a built-in track to copy in (music only).
    #[serde(default)]
    pub system_music_id: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub file_type_id: Option<i64>,
}

async fn save(
    st: &AppState,
    c: &Caller,
    r: SaveReq,
    library: &str,
    kind: &str,
    lang: Lang,
) -> Answer<files::MediaView> {
    let mid = c.merchant_id()?;
    c.may_write(library)?;
    let keep = uc::Keep {
        id: r.id,
        system_music_id: r.system_music_id,
        name: r.name.as_deref(),
        file_type_id: r.file_type_id,
        lang,
    };
    let m = uc::keep(&st.db, &st.storage, mid, library, kind, keep, |l| {
        c.may_write(l)
    })
    .await?;
    Ok(reply(files::view(st, &m)))
}

#[utoipa::path(post, path = "/clip.merchant_music_library/save", tag = "materials", request_body = SaveReq, responses((status = 200, body = Reply<files::MediaView>, description = "the file, now in the music library")))]
pub async fn music_save(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<SaveReq>,
) -> Answer<files::MediaView> {
    save(&st, &c, r, "music", "audio", lang).await
}

#[utoipa::path(post, path = "/clip.merchant_image_library/save", tag = "materials", request_body = SaveReq, responses((status = 200, body = Reply<files::MediaView>, description = "the file, now in the image library")))]
pub async fn image_save(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<SaveReq>,
) -> Answer<files::MediaView> {
    save(&st, &c, r, "image", "image", lang).await
}
