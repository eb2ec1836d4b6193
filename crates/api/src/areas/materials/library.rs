//! Library calls: uploads into each library, lists, rename, delete (refused while in use), shot groups
//! and the classify tree. Thin handlers over `services::materials::{library, upload}`.

use super::upload::{self, Accept};
use super::views::{Classify, Group};
use crate::error::{Answer, ApiError, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, IdsReq, Input};
use crate::files::{MediaView, view};
use crate::state::AppState;
use axum::extract::{Multipart, State};
use domain::i18n::Msg;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::materials::library as uc;
use services::materials::upload::Class;
use utoipa::ToSchema;

const V: &[Class] = &[Class::Video];
const I: &[Class] = &[Class::Image];
const A: &[Class] = &[Class::Audio];
const VI: &[Class] = &[Class::Video, Class::Image];
const ANY: &[Class] = &[Class::Video, Class::Image, Class::Audio];

fn accept(library: &'static str, classes: &'static [Class]) -> Accept {
    Accept {
        library,
        classes,
        icons: false,
    }
}

/// The library a `type` field names in the generic upload calls.
fn by_type(t: Option<&String>, default: Accept) -> ApiResult<Accept> {
    Ok(match t.map(|s| s.trim()).unwrap_or("") {
        "" => default,
        "voice" => accept("voice", A),
        "music" => accept("music", A),
        "image" => accept("image", I),
        "video" => accept("video", V),
        "icon" => Accept {
            library: "image",
            classes: I,
            icons: true,
        },
        other => {
            return Err(ApiError::invalid_with(
                "type",
                Msg::InvalidValue,
                vec![(
                    "reason",
                    format!("'{other}': voice | music | image | video | icon"),
                )],
            ));
        }
    })
}

async fn group_of(st: &AppState, mid: i64, raw: Option<&String>) -> ApiResult<i64> {
    let id: i64 = match raw.map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => return Ok(0),
        Some(s) => s.parse().map_err(|_| {
            ApiError::invalid_with(
                "group_id",
                Msg::InvalidValue,
                vec![("reason", s.to_string())],
            )
        })?,
    };
    uc::known_group(&st.db, mid, id).await
}

async fn do_upload(
    st: &AppState,
    c: &Caller,
    mp: Multipart,
    pick: impl Fn(&std::collections::HashMap<String, String>) -> ApiResult<Accept>,
) -> Answer<MediaView> {
    let mid = c.merchant_id()?;
    // Decided from the text fields before the file streams in.
    let (rec, a, fields) = upload::receive(st, mp, |f| {
        let a = pick(f)?;
        c.may_write(a.library)?;
        Ok(a)
    })
    .await?;
    let group_id = group_of(st, mid, fields.get("group_id")).await?;
    let m = services::materials::upload::store_received(
        &st.db,
        &st.storage,
        mid,
        rec,
        &a,
        group_id,
        fields.get("name").map(String::as_str),
    )
    .await?;
    Ok(reply(view(st, &m)))
}

#[utoipa::path(post, path = "/media.merchant_much_resource/add_resource", tag = "materials", request_body(content_type = "multipart/form-data", description = "file, group_id, name"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn add_resource(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |_| Ok(accept("resource", VI))).await
}

#[utoipa::path(post, path = "/common.tool/project_upload", tag = "materials", request_body(content_type = "multipart/form-data", description = "file"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn project_upload(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |_| Ok(accept("upload", ANY))).await
}

#[utoipa::path(post, path = "/task.merchant_forward_task/local_upload", tag = "materials", request_body(content_type = "multipart/form-data", description = "file"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn local_upload(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |_| Ok(accept("upload", VI))).await
}

#[utoipa::path(post, path = "/bpdr.merchant_mediainfo/upload", tag = "materials", request_body(content_type = "multipart/form-data", description = "type (voice|music|image|video|icon) before file"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn mediainfo_upload(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |f| {
        by_type(f.get("type"), accept("upload", ANY))
    })
    .await
}

#[utoipa::path(post, path = "/bpdr.merchant_mediainfo/douyin_upload", tag = "materials", request_body(content_type = "multipart/form-data", description = "file"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn douyin_upload(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |_| Ok(accept("upload", V))).await
}

#[utoipa::path(post, path = "/media.merchant_producing_upfile/add", tag = "materials", request_body(content_type = "multipart/form-data", description = "type (music|image|video) before file"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn producing_add(
    State(st): State<AppState>,
    c: Caller,
    mp: Multipart,
) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |f| by_type(f.get("type"), accept("music", A))).await
}

#[utoipa::path(post, path = "/media.merchant_font_style/add", tag = "materials", request_body(content_type = "multipart/form-data", description = "name, file (ttf/otf)"), responses((status = 200, body = Reply<MediaView>)))]
pub async fn font_add(State(st): State<AppState>, c: Caller, mp: Multipart) -> Answer<MediaView> {
    do_upload(&st, &c, mp, |_| Ok(accept("font", &[Class::Font]))).await
}

// ---- lists ----

#[derive(Debug, Deserialize)]
pub struct LibQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub group_id: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
}

impl LibQuery {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        self.list
            .clone()
            .with_filter("name", self.name.as_deref(), "include")
            .with_filter(
                "group_id",
                self.group_id.map(|g| g.to_string()).as_deref(),
                "=",
            )
    }
}

/// A library's files as a spreadsheet, with the list's filters.
async fn export_lib(
    st: AppState,
    c: Caller,
    lang: domain::i18n::Lang,
    e: crate::download::Export<LibQuery>,
    library: &'static str,
    name: &'static str,
) -> crate::error::HttpResult<axum::response::Response> {
    use crate::download::console_word;
    use crate::export::{Cell, Table, china, header};
    let f = crate::download::format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = crate::download::every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { uc::list(&db, mid, library, &page).await }
    })
    .await?;
    let cols = [
        ("编号", "ID"),
        ("名称", "Name"),
        ("原文件名", "Original file name"),
        ("类型", "Type"),
        ("时长（秒）", "Duration (s)"),
        ("分辨率", "Resolution"),
        ("大小（字节）", "Size (bytes)"),
        ("状态", "Status"),
        ("上传时间", "Uploaded at"),
    ];
    let table = Table {
        header: header(lang, &cols),
        rows: rows
            .into_iter()
            .map(|m| {
                let size = if m.width > 0 {
                    format!("{}×{}", m.width, m.height)
                } else {
                    String::new()
                };
                vec![
                    Cell::Int(m.id),
                    m.name.into(),
                    m.original_name.into(),
                    console_word(lang, "materials", &format!("kinds.{}", m.kind.as_str())).into(),
                    Cell::Int((m.duration_ms + 500) / 1000),
                    size.into(),
                    Cell::Int(m.size),
                    console_word(lang, "materials", &format!("state.{}", m.state.as_str())).into(),
                    china(m.created_at),
                ]
            })
            .collect(),
    };
    Ok(crate::download::attachment(
        name,
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}

macro_rules! lib_export {
    ($fn:ident, $path:literal, $lib:literal, $file:literal, $what:literal) => {
        #[doc = concat!("The ", $what, " as a spreadsheet (xlsx or csv), with the list's filters.")]
        #[utoipa::path(get, path = $path, tag = "materials", responses((status = 200, description = $what, content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
        pub async fn $fn(
            State(st): State<AppState>,
            c: Caller,
            crate::LangOf(lang): crate::LangOf,
            Input(e): Input<crate::download::Export<LibQuery>>,
        ) -> crate::error::HttpResult<axum::response::Response> {
            export_lib(st, c, lang, e, $lib, $file).await
        }
    };
}

// The video material library (`video_resource_detail`) and the voice, music, image and font libraries.
lib_export!(
    export,
    "/media.merchant_much_resource/export",
    "resource",
    "materials",
    "video material files"
);
lib_export!(
    voice_export,
    "/bpdr.merchant_mediainfo/voice_export",
    "voice",
    "voice",
    "voice-over materials"
);
lib_export!(
    music_export,
    "/media.merchant_producing_upfile/music_export",
    "music",
    "music",
    "music files"
);
lib_export!(
    image_export,
    "/media.merchant_producing_upfile/image_export",
    "image",
    "image",
    "image files"
);
lib_export!(
    font_export,
    "/media.merchant_font_style/export",
    "font",
    "font",
    "font files"
);

async fn list_lib(
    st: &AppState,
    c: &Caller,
    library: &str,
    q: LibQuery,
) -> Answer<Page<MediaView>> {
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, library, &q.list()).await?;
    Ok(reply(Page::new(
        rows.iter().map(|m| view(st, m)).collect(),
        total,
    )))
}

macro_rules! lib_list {
    ($fn:ident, $path:literal, $lib:literal) => {
        #[utoipa::path(method(get, post), path = $path, tag = "materials", responses((status = 200, body = Reply<Page<MediaView>>)))]
        pub async fn $fn(State(st): State<AppState>, c: Caller, Input(q): Input<LibQuery>) -> Answer<Page<MediaView>> {
            list_lib(&st, &c, $lib, q).await
        }
    };
}

lib_list!(up_files, "/bpdr.merchant_mediainfo/getUpFile", "upload");
lib_list!(
    voice_names,
    "/bpdr.merchant_mediainfo/getVoiceName",
    "voice"
);
lib_list!(
    font_urls,
    "/bpdr.merchant_mediainfo/getFontStyleUrl",
    "font"
);
lib_list!(
    producing_video,
    "/media.merchant_producing_upfile/video_index",
    "video"
);
lib_list!(
    producing_music,
    "/media.merchant_producing_upfile/music_index",
    "music"
);
lib_list!(
    producing_image,
    "/media.merchant_producing_upfile/image_index",
    "image"
);
lib_list!(fonts, "/media.merchant_font_style/index", "font");
lib_list!(fonts_all, "/media.merchant_font_style/getAll", "font");
lib_list!(
    broadcast_detail_list,
    "/media.merchant_much_resource/broadcast_resource_detail",
    "voice"
);
lib_list!(
    resource_detail_list,
    "/media.merchant_much_resource/video_resource_detail",
    "resource"
);

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/resource_detail", tag = "materials", params(("id" = i64, Query)), responses((status = 200, body = Reply<MediaView>)))]
pub async fn resource_detail(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<MediaView> {
    let m = uc::get(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(view(&st, &m)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RenameReq {
    #[schema(minimum = 1)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
}

async fn rename(st: &AppState, c: &Caller, r: RenameReq) -> Answer<Done> {
    uc::rename(&st.db, c.merchant_id()?, r.id, &r.name, |l| c.may_write(l)).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/media.merchant_font_style/edit", tag = "materials", request_body = RenameReq, responses((status = 200, body = Reply<Done>, description = "renamed")))]
pub async fn font_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RenameReq>,
) -> Answer<Done> {
    rename(&st, &c, r).await
}

#[utoipa::path(post, path = "/ajax/edit_upfile", tag = "materials", request_body = RenameReq, responses((status = 200, body = Reply<Done>, description = "renamed")))]
pub async fn edit_upfile(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RenameReq>,
) -> Answer<Done> {
    rename(&st, &c, r).await
}

macro_rules! deleter {
    ($fn:ident, $path:literal) => {
        #[utoipa::path(post, path = $path, tag = "materials", request_body = IdsReq, responses((status = 200, body = Reply<Done>, description = "deleted")))]
        pub async fn $fn(State(st): State<AppState>, c: Caller, Input(r): Input<IdsReq>) -> Answer<Done> {
            let ids = r.all("id")?;
            uc::delete(&st.db, &st.storage, c.merchant_id()?, &ids, |l| c.may_write(l)).await?;
            Ok(reply(Done {}))
        }
    };
}

deleter!(
    resource_delete,
    "/media.merchant_much_resource/resource_delete"
);
deleter!(
    resource_delete_media,
    "/media.merchant_much_resource/resource_delete_media"
);
deleter!(producing_delete, "/media.merchant_producing_upfile/delete");
deleter!(font_delete, "/media.merchant_font_style/delete");

#[derive(Debug, Deserialize, ToSchema)]
pub struct MoveReq {
    pub group_id: i64,
    #[serde(default)]
    pub ids: Vec<i64>,
}

/// How many materials moved.
#[derive(Debug, Serialize, ToSchema)]
pub struct Moved {
    pub moved: usize,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/resource_add", tag = "materials", request_body = MoveReq, responses((status = 200, body = Reply<Moved>, description = "moved into the group")))]
pub async fn resource_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<MoveReq>,
) -> Answer<Moved> {
    let moved = uc::move_to_group(&st.db, c.merchant_id()?, r.group_id, &r.ids, |l| {
        c.may_write(l)
    })
    .await?;
    Ok(reply(Moved { moved }))
}

// ---- shot groups ----

#[derive(Debug, Deserialize)]
pub struct GroupQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

async fn group_list(st: &AppState, c: &Caller, kind: &str, q: GroupQuery) -> Answer<Page<Group>> {
    let lq = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = uc::groups(&st.db, c.merchant_id()?, kind, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Group::from).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/video_resource_group_index", tag = "materials", responses((status = 200, body = Reply<Page<Group>>, description = "shot groups with counts")))]
pub async fn video_groups(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<GroupQuery>,
) -> Answer<Page<Group>> {
    group_list(&st, &c, "video", q).await
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/broadcast_resource_group_index", tag = "materials", responses((status = 200, body = Reply<Page<Group>>, description = "voice-over groups with counts")))]
pub async fn broadcast_groups(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<GroupQuery>,
) -> Answer<Page<Group>> {
    group_list(&st, &c, "broadcast", q).await
}

/// The kinds of group a merchant makes (`GroupAdd.kind`): shot group or voice-over group; a group's
/// `GroupKind` also names one-touch's image groups, which exist only inside a job (for the document
/// only; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum NewGroupKind {
    Video,
    Broadcast,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupAdd {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub classify_id: i64,
    /// `video` (shot group, default) or `broadcast` (voice-over group).
    #[serde(default)]
    #[schema(value_type = Option<NewGroupKind>)]
    pub kind: Option<String>,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/resource_group_add", tag = "materials", request_body = GroupAdd, responses((status = 200, body = Reply<Group>)))]
pub async fn group_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupAdd>,
) -> Answer<Option<Group>> {
    let g = uc::add_group(
        &st.db,
        c.merchant_id()?,
        &r.name,
        r.kind.as_deref(),
        r.classify_id,
    )
    .await?;
    Ok(reply(g.map(Group::from)))
}

#[utoipa::path(post, path = "/media.merchant_much_resource/edit_resource_group_name", tag = "materials", request_body = RenameReq, responses((status = 200, body = Reply<Done>, description = "renamed")))]
pub async fn group_rename(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RenameReq>,
) -> Answer<Done> {
    uc::rename_group(&st.db, c.merchant_id()?, r.id, &r.name).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupDelete {
    pub id: i64,
    /// Must be true to delete a group that still holds materials (they move to "ungrouped").
    #[serde(default)]
    pub confirm: bool,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/resource_group_delete", tag = "materials", request_body = GroupDelete, responses((status = 200, body = Reply<Done>), (status = 422, description = "not empty: confirm first")))]
pub async fn group_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupDelete>,
) -> Answer<Done> {
    uc::delete_group(&st.db, c.merchant_id()?, r.id, r.confirm).await?;
    Ok(reply(Done {}))
}

// ---- classify tree ----

/// One classify of the tree with its children and its shot groups.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassifyNode {
    pub id: i64,
    pub name: String,
    pub parent_id: i64,
    #[schema(no_recursion)]
    pub children: Vec<ClassifyNode>,
    pub groups: Vec<Group>,
}

fn classify_tree(all: &[uc::Classify], groups: &[Group], parent: i64) -> Vec<ClassifyNode> {
    all.iter()
        .filter(|c| c.parent_id == parent)
        .map(|c| ClassifyNode {
            id: c.id,
            name: c.name.clone(),
            parent_id: c.parent_id,
            children: classify_tree(all, groups, c.id),
            groups: groups
                .iter()
                .filter(|g| g.classify_id == c.id)
                .cloned()
                .collect(),
        })
        .collect()
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/resource_classify_index", tag = "materials", responses((status = 200, body = Reply<Vec<ClassifyNode>>, description = "classify tree")))]
pub async fn classify_index(State(st): State<AppState>, c: Caller) -> Answer<Vec<ClassifyNode>> {
    let all = uc::classifies(&st.db, c.merchant_id()?).await?;
    Ok(reply(classify_tree(&all, &[], 0)))
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/classify_index", tag = "materials", responses((status = 200, body = Reply<Page<Classify>>, description = "classify list")))]
pub async fn classify_list(State(st): State<AppState>, c: Caller) -> Answer<Page<Classify>> {
    let all = uc::classifies(&st.db, c.merchant_id()?).await?;
    Ok(reply(Page::whole(
        all.into_iter().map(Classify::from).collect(),
    )))
}

/// The classify tree with its shot groups; the unclassified groups beside it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GroupTree {
    pub tree: Vec<ClassifyNode>,
    pub groups: Vec<Group>,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/resource_group_tree", tag = "materials", responses((status = 200, body = Reply<GroupTree>, description = "classify tree with its shot groups; ungrouped at the root")))]
pub async fn group_tree(State(st): State<AppState>, c: Caller) -> Answer<GroupTree> {
    let mid = c.merchant_id()?;
    let all = uc::classifies(&st.db, mid).await?;
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = uc::groups(&st.db, mid, "video", &q).await?;
    let groups: Vec<Group> = groups.into_iter().map(Group::from).collect();
    Ok(reply(GroupTree {
        tree: classify_tree(&all, &groups, 0),
        groups: groups
            .iter()
            .filter(|g| g.classify_id == 0)
            .cloned()
            .collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ClassifyAdd {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub parent_id: i64,
}

/// The id of what was created.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GroupCreated)]
pub struct Created {
    pub id: i64,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/resource_add_classify", tag = "materials", request_body = ClassifyAdd, responses((status = 200, body = Reply<Created>)))]
pub async fn classify_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ClassifyAdd>,
) -> Answer<Created> {
    let id = uc::add_classify(&st.db, c.merchant_id()?, &r.name, r.parent_id).await?;
    Ok(reply(Created { id }))
}

#[utoipa::path(post, path = "/media.merchant_much_resource/edit_classify_name", tag = "materials", request_body = RenameReq, responses((status = 200, body = Reply<Done>, description = "renamed")))]
pub async fn classify_rename(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RenameReq>,
) -> Answer<Done> {
    uc::rename_classify(&st.db, c.merchant_id()?, r.id, &r.name).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/media.merchant_much_resource/resource_delete_classify", tag = "materials", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "deleted with its subtree; groups become unclassified")))]
pub async fn classify_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::delete_classify(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}
