//! Media: storage, content sniffing, ffprobe/ffmpeg processes and the ingest pipeline (DESIGN.md §6).

pub mod ffmpeg;
pub mod ingest;
pub mod magic;
pub mod probe;
pub mod storage;

pub use magic::Kind;
pub use probe::MediaInfo;
pub use storage::Storage;
