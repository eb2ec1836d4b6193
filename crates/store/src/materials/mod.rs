//! Material libraries: classify tree, shot groups, stored files, file types, resumable uploads,
//! subtitle lines and material uses. Every query takes the merchant id.
//!
//! One file per table group:
//! * `files`: stored files (`media_files`), their state, progress and uses;
//! * `shot_groups`: shot groups;
//! * `classify`: the classify tree;
//! * `uploads`: resumable upload sessions;
//! * `file_types`: file types and a file's type;
//! * `system_music`: the operator's built-in music;
//! * `subtitles`: subtitle lines (speech recognition) and a file's recognition state.

mod classify;
mod file_types;
mod files;
mod shot_groups;
mod subtitles;
mod system_music;
mod uploads;

pub use classify::*;
pub use file_types::*;
pub use files::*;
pub use shot_groups::*;
pub use subtitles::*;
pub use system_music::*;
pub use uploads::*;
