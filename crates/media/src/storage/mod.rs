//! Where media lives, behind a trait that never hands out a path of the store itself.
//!
//! - [`ObjectStore`]: keyed objects — put (from a finished local file or a stream), get (streamed, with
//!   a byte range), delete, exists, link, list by prefix, a signed URL where the backend has one, and
//!   `local_copy`: a local file with an object's bytes for the programs that need one (ffmpeg, the
//!   speech recognizer). The local folder ([`LocalFolder`], `file://`) is the default backend; S3 and
//!   compatible servers (`s3://bucket/prefix`, [`s3`]) are the other, for several nodes.
//! - [`Workspace`]: scratch space on the local disk for work in progress (temporary files, chunked
//!   upload parts, render prep folders), with its own cleanup (`sweep`). Finished files go into the
//!   store with `put_file`, so a refused or interrupted upload or render leaves nothing in the library.
//!
//! [`Storage`] carries one of each and is what the rest of the code holds.

pub mod s3;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::time::SystemTime;
use tokio::io::{AsyncRead, AsyncSeekExt};

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("unsupported storage URL {0}: use file://<folder> or s3://<bucket>/<prefix>")]
    Unsupported(String),
    /// A storage that cannot be used as configured (said at start, not on the first upload).
    #[error("{0}")]
    Config(String),
    #[error("invalid storage key {0}")]
    BadKey(String),
    #[error("no stored object {0}")]
    NotFound(String),
    #[error("range {start}-{end} is outside the object ({size} bytes)")]
    BadRange { start: u64, end: u64, size: u64 },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub(crate) type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StorageError>> + Send + 'a>>;

/// A byte stream of (part of) an object.
pub type Body = Pin<Box<dyn AsyncRead + Send>>;

/// What `get` answers: the object's size, the bytes asked for, and the stream of them.
pub struct Object {
    pub size: u64,
    /// The first byte and one past the last byte of `body` within the object.
    pub start: u64,
    pub end: u64,
    pub body: Body,
}

/// A stored object as `list` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub key: String,
    pub size: u64,
}

/// A local file with an object's bytes, to be read while this value lives (for a remote backend a
/// cached download; for the local folder the stored file itself). Never written to.
#[derive(Debug, Clone)]
pub struct LocalFile {
    path: PathBuf,
    /// Keeps a cached download from being trimmed while a clone of this lives.
    _hold: Option<Arc<s3::Hold>>,
}

impl LocalFile {
    fn at(path: PathBuf) -> LocalFile {
        LocalFile { path, _hold: None }
    }

    pub(crate) fn held(path: PathBuf, hold: Arc<s3::Hold>) -> LocalFile {
        LocalFile {
            path,
            _hold: Some(hold),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for LocalFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for LocalFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// A backend of keyed media objects. Keys are ours (`m/<merchant>/<random>.<ext>`), checked anyway
/// ([`check_key`]).
pub trait ObjectStore: Send + Sync + std::fmt::Debug {
    /// Stores a finished local file under `key`, consuming it (moved where the disk allows); its size.
    fn put_file<'a>(&'a self, key: &'a str, from: &'a Path) -> Fut<'a, u64>;
    /// Stores what `body` yields under `key`, all or nothing; its size.
    fn put_stream<'a>(&'a self, key: &'a str, body: Body) -> Fut<'a, u64>;
    /// The bytes `range` (start, end exclusive; `None` is all) of `key`.
    fn get<'a>(&'a self, key: &'a str, range: Option<(u64, Option<u64>)>) -> Fut<'a, Object>;
    /// Removes `key`; already gone is fine.
    fn delete<'a>(&'a self, key: &'a str) -> Fut<'a, ()>;
    fn exists<'a>(&'a self, key: &'a str) -> Fut<'a, bool>;
    /// A second key with the same bytes (stored objects are never rewritten in place).
    fn link<'a>(&'a self, from_key: &'a str, to_key: &'a str) -> Fut<'a, ()>;
    /// The objects whose keys start with `prefix`, in key order.
    fn list<'a>(&'a self, prefix: &'a str) -> Fut<'a, Vec<Listed>>;
    /// A URL the object can be fetched from directly for `ttl_secs`, where the backend has one (S3's
    /// presigned GET); the local folder has none, and the server signs its own `/files/...` links.
    fn signed_url(&self, key: &str, ttl_secs: u64) -> Option<String>;
    /// A local file with the bytes of `key`, for programs that read files.
    fn local_copy<'a>(&'a self, key: &'a str) -> Fut<'a, LocalFile>;
    /// Whether the backend answers at all (reachable, the bucket there, the key accepted); the
    /// round trip of [`Storage::check`] follows.
    fn check(&self) -> Fut<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

/// Refuses keys that could leave the store's namespace: empty parts, `.`/`..`, absolute, odd characters.
pub fn check_key(key: &str) -> Result<(), StorageError> {
    let ok = !key.is_empty()
        && !key.starts_with('/')
        && key
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/_.-".contains(c));
    if ok {
        Ok(())
    } else {
        Err(StorageError::BadKey(key.to_string()))
    }
}

/// The local-folder backend (`file://<folder>`).
#[derive(Debug, Clone)]
pub struct LocalFolder {
    root: PathBuf,
}

impl LocalFolder {
    pub fn new(root: impl Into<PathBuf>) -> LocalFolder {
        LocalFolder { root: root.into() }
    }

    fn file(&self, key: &str) -> Result<PathBuf, StorageError> {
        check_key(key)?;
        Ok(self.root.join(key))
    }

    async fn parent_of(to: &Path) -> Result<(), StorageError> {
        if let Some(dir) = to.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        Ok(())
    }

    fn not_found(key: &str, e: std::io::Error) -> StorageError {
        if e.kind() == std::io::ErrorKind::NotFound {
            StorageError::NotFound(key.to_string())
        } else {
            e.into()
        }
    }
}

impl ObjectStore for LocalFolder {
    fn put_file<'a>(&'a self, key: &'a str, from: &'a Path) -> Fut<'a, u64> {
        Box::pin(async move {
            let to = self.file(key)?;
            Self::parent_of(&to).await?;
            if tokio::fs::rename(from, &to).await.is_err() {
                // Another filesystem: copy under a temporary name, then rename, so a reader never
                // sees half a file.
                let part = to.with_extension(format!("part-{}", token(8)));
                tokio::fs::copy(from, &part).await?;
                tokio::fs::rename(&part, &to).await?;
                tokio::fs::remove_file(from).await?;
            }
            Ok(tokio::fs::metadata(&to).await?.len())
        })
    }

    fn put_stream<'a>(&'a self, key: &'a str, mut body: Body) -> Fut<'a, u64> {
        Box::pin(async move {
            let to = self.file(key)?;
            Self::parent_of(&to).await?;
            let part = to.with_extension(format!("part-{}", token(8)));
            let written = async {
                let mut f = tokio::fs::File::create(&part).await?;
                let n = tokio::io::copy(&mut body, &mut f).await?;
                tokio::io::AsyncWriteExt::flush(&mut f).await?;
                tokio::fs::rename(&part, &to).await?;
                Ok::<u64, std::io::Error>(n)
            }
            .await;
            if written.is_err() {
                let _ = tokio::fs::remove_file(&part).await;
            }
            Ok(written?)
        })
    }

    fn get<'a>(&'a self, key: &'a str, range: Option<(u64, Option<u64>)>) -> Fut<'a, Object> {
        Box::pin(async move {
            let path = self.file(key)?;
            let mut f = tokio::fs::File::open(&path)
                .await
                .map_err(|e| Self::not_found(key, e))?;
            let size = f.metadata().await?.len();
            let (start, end) = match range {
                None => (0, size),
                Some((start, end)) => (start, end.unwrap_or(size).min(size)),
            };
            if start > end || (start >= size && size > 0) {
                return Err(StorageError::BadRange { start, end, size });
            }
            f.seek(std::io::SeekFrom::Start(start)).await?;
            let body: Body = Box::pin(tokio::io::AsyncReadExt::take(f, end - start));
            Ok(Object {
                size,
                start,
                end,
                body,
            })
        })
    }

    fn delete<'a>(&'a self, key: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            match tokio::fs::remove_file(self.file(key)?).await {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            }
        })
    }

    fn exists<'a>(&'a self, key: &'a str) -> Fut<'a, bool> {
        Box::pin(async move {
            Ok(match self.file(key) {
                Ok(p) => tokio::fs::metadata(p).await.is_ok_and(|m| m.is_file()),
                Err(_) => false,
            })
        })
    }

    fn link<'a>(&'a self, from_key: &'a str, to_key: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let (from, to) = (self.file(from_key)?, self.file(to_key)?);
            Self::parent_of(&to).await?;
            // A hard link is instant and takes no space; a copy where the folder cannot link.
            if tokio::fs::hard_link(&from, &to).await.is_err() {
                tokio::fs::copy(&from, &to)
                    .await
                    .map_err(|e| Self::not_found(from_key, e))?;
            }
            Ok(())
        })
    }

    fn list<'a>(&'a self, prefix: &'a str) -> Fut<'a, Vec<Listed>> {
        Box::pin(async move {
            let root = self.root.clone();
            let prefix = prefix.to_string();
            let mut out = tokio::task::spawn_blocking(move || {
                let mut out = vec![];
                walk(&root, &root, &prefix, &mut out)?;
                Ok::<_, std::io::Error>(out)
            })
            .await
            .map_err(|e| StorageError::Io(std::io::Error::other(e)))??;
            out.sort_by(|a, b| a.key.cmp(&b.key));
            Ok(out)
        })
    }

    fn signed_url(&self, _key: &str, _ttl_secs: u64) -> Option<String> {
        None
    }

    fn local_copy<'a>(&'a self, key: &'a str) -> Fut<'a, LocalFile> {
        Box::pin(async move {
            let path = self.file(key)?;
            match tokio::fs::metadata(&path).await {
                Ok(m) if m.is_file() => Ok(LocalFile::at(path)),
                Ok(_) => Err(StorageError::NotFound(key.to_string())),
                Err(e) => Err(Self::not_found(key, e)),
            }
        })
    }
}

/// The stored objects under `dir` whose keys start with `prefix` (the part files of writes in progress
/// and hidden folders are not objects).
fn walk(root: &Path, dir: &Path, prefix: &str, out: &mut Vec<Listed>) -> std::io::Result<()> {
    for e in read_dir_or_empty(dir)? {
        let path = e.path();
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let key = rel.to_string_lossy().replace('\\', "/");
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name.contains(".part-") {
            continue;
        }
        let meta = e.metadata()?;
        if meta.is_dir() {
            // Only folders that can hold keys with the prefix.
            let as_dir = format!("{key}/");
            if as_dir.starts_with(prefix) || prefix.starts_with(&as_dir) {
                walk(root, &path, prefix, out)?;
            }
        } else if key.starts_with(prefix) {
            out.push(Listed {
                key,
                size: meta.len(),
            });
        }
    }
    Ok(())
}

/// Scratch space on the local disk for work in progress, with its own cleanup ([`Workspace::sweep`]).
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    pub fn new(root: impl Into<PathBuf>) -> Workspace {
        Workspace { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    fn prep(&self) -> PathBuf {
        self.root.join("prep")
    }

    /// A fresh temporary file path.
    pub async fn temp_path(&self, ext: &str) -> std::io::Result<PathBuf> {
        let dir = self.tmp();
        tokio::fs::create_dir_all(&dir).await?;
        Ok(dir.join(format!("{}.{ext}", token(16))))
    }

    /// The part file a chunked upload is written into until it finishes.
    pub fn upload_part(&self, upload_id: &str) -> PathBuf {
        self.tmp().join(format!("up-{upload_id}.part"))
    }

    /// A project's shared render part (audio bed, subtitles), named by a digest of what it is made from.
    pub fn prep_dir(&self, project_id: i64, digest: &str) -> PathBuf {
        self.prep().join(format!("p{project_id}-{digest}"))
    }

    /// Removes the temporary files, abandoned upload parts and render prep folders that no live work owns
    /// (what a crash or a restart leaves behind). Blocking: run it off the async threads.
    pub fn sweep(&self, live: &Live) -> std::io::Result<Swept> {
        let mut out = Swept::default();
        let stale = |t: SystemTime| t + live.grace < live.now;
        for entry in read_dir_or_empty(&self.tmp())? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            let Some(touched) = newest_mtime(&path) else {
                continue;
            };
            let orphan = stale(touched)
                && match name
                    .strip_prefix("up-")
                    .and_then(|n| n.strip_suffix(".part"))
                {
                    Some(id) => !live.uploads.contains(id),
                    // A running job may own what was touched after the oldest one of them started.
                    None => live.jobs_since.is_none_or(|since| touched < since),
                };
            if orphan {
                out.add(remove(&path)?);
            }
        }
        for entry in read_dir_or_empty(&self.prep())? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            let project = name
                .strip_prefix('p')
                .and_then(|n| n.split('-').next())
                .and_then(|n| n.parse::<i64>().ok());
            if !project.is_some_and(|p| live.projects.contains(&p))
                && newest_mtime(&path).is_some_and(stale)
            {
                out.add(remove(&path)?);
            }
        }
        Ok(out)
    }
}

/// The media store and the scratch workspace, as the rest of the code holds them.
#[derive(Debug, Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    work: Workspace,
}

impl Storage {
    /// The store named by `url` (`file://<folder>`, or `s3://bucket/prefix` reached as the
    /// `CLIPMATRIX_S3_*` variables say) with its scratch workspace in `work`.
    pub fn open(url: &str, work: impl Into<PathBuf>) -> Result<Storage, StorageError> {
        let s3 = s3::S3Settings::from_env(|k| std::env::var(k).ok())?;
        Storage::open_with(url, work, &s3)
    }

    pub fn open_with(
        url: &str,
        work: impl Into<PathBuf>,
        s3: &s3::S3Settings,
    ) -> Result<Storage, StorageError> {
        let work = Workspace::new(work);
        let store: Arc<dyn ObjectStore> = match url.strip_prefix("file://") {
            Some(path) if !path.is_empty() => Arc::new(LocalFolder::new(path)),
            _ if url.starts_with("s3://") => Arc::new(s3::S3::new(url, s3, work.root())?),
            _ => return Err(StorageError::Unsupported(url.to_string())),
        };
        Ok(Storage { store, work })
    }

    /// Proves the store usable at start: writes, reads back and deletes a probe object, so an
    /// unreachable endpoint, a missing bucket or a refused key stop the server with a clear message
    /// instead of failing the first upload.
    pub async fn check(&self) -> Result<(), StorageError> {
        self.store.check().await?;
        let key = format!("probe/{}.txt", token(12));
        let fail = |what: &str, e: StorageError| {
            StorageError::Config(format!("the media storage cannot {what}: {e}"))
        };
        self.put_bytes(&key, b"ok".to_vec())
            .await
            .map_err(|e| fail("store a file", e))?;
        let read = async {
            let mut o = self.store.get(&key, None).await?;
            let mut v = vec![];
            tokio::io::AsyncReadExt::read_to_end(&mut o.body, &mut v).await?;
            Ok::<_, StorageError>(v)
        }
        .await
        .map_err(|e| fail("read a file back", e))?;
        self.store
            .delete(&key)
            .await
            .map_err(|e| fail("delete a file", e))?;
        if read != b"ok" {
            return Err(StorageError::Config(
                "the media storage gave back other bytes than it was given".into(),
            ));
        }
        Ok(())
    }

    /// Any backend (tests, and S3 later).
    pub fn with(store: Arc<dyn ObjectStore>, work: Workspace) -> Storage {
        Storage { store, work }
    }

    pub fn store(&self) -> &dyn ObjectStore {
        &*self.store
    }

    pub fn workspace(&self) -> &Workspace {
        &self.work
    }

    /// A new key for a merchant's file.
    pub fn new_key(merchant_id: i64, ext: &str) -> String {
        format!("m/{merchant_id}/{}.{ext}", token(20))
    }

    /// A local file with the bytes of `key` (see [`ObjectStore::local_copy`]).
    pub async fn local_copy(&self, key: &str) -> Result<LocalFile, StorageError> {
        self.store.local_copy(key).await
    }

    /// Moves a finished local file (usually from `temp_path`) into the store under `key`; its size.
    pub async fn put_file(&self, key: &str, from: &Path) -> Result<u64, StorageError> {
        self.store.put_file(key, from).await
    }

    /// Stores `bytes` made in memory (a probe, a screenshot) under `key`; its size.
    pub async fn put_bytes(&self, key: &str, bytes: Vec<u8>) -> Result<u64, StorageError> {
        let body: Body = Box::pin(std::io::Cursor::new(bytes));
        self.store.put_stream(key, body).await
    }

    pub async fn link(&self, from_key: &str, to_key: &str) -> Result<(), StorageError> {
        self.store.link(from_key, to_key).await
    }

    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        self.store.delete(key).await
    }

    pub async fn exists(&self, key: &str) -> bool {
        self.store.exists(key).await.unwrap_or(false)
    }

    pub async fn get(
        &self,
        key: &str,
        range: Option<(u64, Option<u64>)>,
    ) -> Result<Object, StorageError> {
        self.store.get(key, range).await
    }

    /// A fresh temporary file path in the workspace.
    pub async fn temp_path(&self, ext: &str) -> Result<PathBuf, StorageError> {
        Ok(self.work.temp_path(ext).await?)
    }

    pub fn upload_part(&self, upload_id: &str) -> PathBuf {
        self.work.upload_part(upload_id)
    }

    pub fn prep_dir(&self, project_id: i64, digest: &str) -> PathBuf {
        self.work.prep_dir(project_id, digest)
    }

    pub fn sweep(&self, live: &Live) -> std::io::Result<Swept> {
        self.work.sweep(live)
    }
}

/// What is live when the cleanup looks at the temporary folders; `now` is passed in (tests move it).
#[derive(Debug, Clone)]
pub struct Live {
    pub now: std::time::SystemTime,
    /// Nothing touched more recently than this is removed, whoever owns it (uploads stream in, ffmpeg
    /// writes its output as it goes).
    pub grace: std::time::Duration,
    /// When the oldest running job was created: its files are no older than that.
    pub jobs_since: Option<std::time::SystemTime>,
    /// Unexpired chunked uploads.
    pub uploads: std::collections::HashSet<String>,
    /// Projects with a variant still rendering.
    pub projects: std::collections::HashSet<i64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub entries: u64,
    pub bytes: u64,
}

impl Swept {
    fn add(&mut self, bytes: u64) {
        self.entries += 1;
        self.bytes += bytes;
    }
}

fn read_dir_or_empty(dir: &Path) -> std::io::Result<Vec<std::fs::DirEntry>> {
    match std::fs::read_dir(dir) {
        Ok(rd) => rd.collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(vec![]),
        Err(e) => Err(e),
    }
}

/// The latest modification time of a file, or of anything in a folder (an empty folder: its own). A
/// folder's own time is not used otherwise: creating it counts as no work on what is inside.
fn newest_mtime(p: &Path) -> Option<SystemTime> {
    let meta = std::fs::symlink_metadata(p).ok()?;
    if meta.is_dir() {
        let inner = std::fs::read_dir(p)
            .ok()?
            .flatten()
            .filter_map(|e| newest_mtime(&e.path()))
            .max();
        if inner.is_some() {
            return inner;
        }
    }
    meta.modified().ok()
}

/// Removes a file or folder; the bytes it held. Already gone is fine (another node swept it).
fn remove(p: &Path) -> std::io::Result<u64> {
    fn size(p: &Path) -> u64 {
        match std::fs::symlink_metadata(p) {
            Ok(m) if m.is_dir() => std::fs::read_dir(p)
                .map(|rd| rd.flatten().map(|e| size(&e.path())).sum())
                .unwrap_or(0),
            Ok(m) => m.len(),
            Err(_) => 0,
        }
    }
    let bytes = size(p);
    let r = if p.is_dir() {
        std::fs::remove_dir_all(p)
    } else {
        std::fs::remove_file(p)
    };
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(bytes),
    }
}

pub(crate) fn token(n: usize) -> String {
    use rand::Rng;
    const A: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut r = rand::rng();
    (0..n)
        .map(|_| A[r.random_range(0..A.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_escape_the_root() {
        assert!(check_key("m/1/abc.mp4").is_ok());
        for bad in [
            "../etc/passwd",
            "/etc/passwd",
            "m/../../x",
            "m//x",
            "m/1/a b.mp4",
            "",
        ] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
        assert!(Storage::open("ftp://host/x", "/tmp/w").is_err());
        // An s3:// store without keys is refused before any request.
        assert!(matches!(
            Storage::open_with("s3://bucket/p", "/tmp/w", &Default::default()),
            Err(StorageError::Config(_))
        ));
        assert!(Storage::new_key(7, "mp4").starts_with("m/7/"));
    }

    /// The cleanup removes what a crash left (old temp files, a dead render's work folder, parts of
    /// expired uploads, prep folders of finished projects) and keeps what live work owns: fresh files,
    /// files touched since the oldest running job started, parts of live uploads, prep of rendering projects.
    #[test]
    fn sweep_removes_orphans_and_keeps_live_work() {
        use std::time::{Duration, SystemTime};
        let dir =
            std::env::temp_dir().join(format!("cm-sweep-{}-{}", std::process::id(), token(6)));
        let s = Workspace::new(&dir);
        // Times around the real clock: the folders made here carry it as their own time.
        let hour = Duration::from_secs(3600);
        let t0 = SystemTime::now() - 10 * hour;
        let put = |p: &Path, at: SystemTime| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let f = std::fs::File::create(p).unwrap();
            std::io::Write::write_all(&mut &f, b"12345").unwrap();
            f.set_modified(at).unwrap();
        };
        let tmp = dir.join("tmp");
        let (old, recent, fresh) = (t0, t0 + 5 * hour, t0 + 10 * hour - hour / 4);
        put(&tmp.join("orphan.mp4"), old);
        put(&tmp.join(".mix-1-2-orphan").join("seg0.ts"), old);
        put(&tmp.join("job-output.mp4"), recent);
        put(&tmp.join(".mix-9-9-live").join("seg0.ts"), recent);
        put(&tmp.join("streaming-upload.part"), fresh);
        put(&s.upload_part("dead"), old);
        put(&s.upload_part("live"), old);
        put(&s.prep_dir(3, "abc").join("bed.m4a"), old);
        put(&s.prep_dir(4, "def").join("bed.m4a"), old);
        put(&s.prep_dir(5, "fff").join("bed.m4a"), fresh);
        // The projects' piece caches go and stay with their prep folders.
        put(
            &crate::mix::burn_dir(&s.prep_dir(3, "abc")).join("k.mp4"),
            old,
        );
        put(
            &crate::mix::burn_dir(&s.prep_dir(4, "def")).join("k.mp4"),
            old,
        );
        let live = Live {
            now: t0 + 10 * hour,
            grace: hour,
            jobs_since: Some(t0 + 4 * hour),
            uploads: ["live".to_string()].into(),
            projects: [4].into(),
        };
        let swept = s.sweep(&live).unwrap();
        let left = |d: &Path| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            left(&tmp),
            [
                ".mix-9-9-live",
                "job-output.mp4",
                "streaming-upload.part",
                "up-live.part"
            ]
        );
        assert_eq!(left(&dir.join("prep")), ["p4-burn", "p4-def", "p5-fff"]);
        assert_eq!(
            swept,
            Swept {
                entries: 5,
                bytes: 25
            }
        );
        // With no job running, what is past the grace period goes too; the live upload stays.
        let idle = Live {
            jobs_since: None,
            ..live
        };
        s.sweep(&idle).unwrap();
        assert_eq!(left(&tmp), ["streaming-upload.part", "up-live.part"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // The backends' shared contract is tested in tests/storage.rs (local folder and S3).
}
