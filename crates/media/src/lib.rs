//! Media: storage, content sniffing, ffprobe/ffmpeg processes, the ingest pipeline (DESIGN.md §6) and
//! speech recognition for subtitles (asr).

pub mod aigc;
pub mod asr;
pub mod builtin_music;
pub mod ffmpeg;
pub mod font;
pub mod image;
pub mod ingest;
pub mod intellect;
pub mod magic;
pub mod mix;
pub mod probe;
pub mod signature;
pub mod slice;
pub mod slideshow;
pub mod storage;
pub mod tts;
pub mod turns;

pub use magic::Kind;
pub use probe::MediaInfo;
pub use storage::Storage;
