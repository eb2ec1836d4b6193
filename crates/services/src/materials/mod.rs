//! Materials: storing uploads (direct and chunked), subtitle recognition, the built-in music set;
//! the ingest and recognition jobs; signed links to stored files.

pub mod asr;
pub mod changes;
pub mod ingest;
pub mod library;
pub mod music;
pub mod serve;
pub mod upload;
