//! The materials rows the console reads, as the API shows them (the store's rows are not schemas).

use serde::Serialize;
use services::materials::library as uc;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Group {
    pub id: i64,
    pub classify_id: i64,
    pub kind: domain::materials::GroupKind,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
    pub count: i64,
    pub ready: i64,
}
view_of!(uc::Group => Group { id, classify_id, kind, name, sort, created_at, count, ready });

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Classify {
    pub id: i64,
    pub parent_id: i64,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
}
view_of!(uc::Classify => Classify { id, parent_id, name, sort, created_at });

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FileType {
    pub id: i64,
    pub kind: domain::materials::FileTypeKind,
    pub parent_id: i64,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
}
view_of!(uc::FileType => FileType { id, kind, parent_id, name, sort, created_at });

// A material as the libraries list it (its storage keys stay on the server).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MediaFile {
    pub id: i64,
    pub merchant_id: i64,
    pub library: String,
    pub kind: domain::materials::MediaKind,
    pub group_id: i64,
    pub classify_id: i64,
    pub file_type_id: i64,
    pub name: String,
    pub original_name: String,
    pub mime: String,
    pub size: i64,
    pub width: i64,
    pub height: i64,
    pub duration_ms: i64,
    pub fps: f64,
    pub video_codec: String,
    pub audio_codec: String,
    pub has_audio: i64,
    pub rotation: i64,
    pub loudness: Option<f64>,
    pub state: domain::materials::IngestState,
    pub error: String,
    pub progress: i64,
    #[schema(value_type = domain::materials::AsrState)]
    pub asr_state: String,
    pub asr_error: String,
    pub created_at: i64,
    pub updated_at: i64,
}
view_of!(uc::MediaFile => MediaFile {
    id, merchant_id, library, kind, group_id, classify_id, file_type_id, name, original_name, mime,
    size, width, height, duration_ms, fps, video_codec, audio_codec, has_audio, rotation, loudness,
    state, error, progress, asr_state, asr_error, created_at, updated_at,
});

// A built-in track (its storage key stays on the server).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SystemMusic {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub mime: String,
    pub size: i64,
    pub duration_ms: i64,
    pub created_at: i64,
}
view_of!(services::materials::music::SystemMusic => SystemMusic {
    id, name, category, mime, size, duration_ms, created_at,
});
