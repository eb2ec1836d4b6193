//! Where media lives. One type for every backend the URL can name; the local folder is built in, and
//! `s3://` is refused with a clear message until an S3 client is added behind the same methods.
//! Uploads are streamed into a temporary file under the storage root and then moved into place, so a
//! refused or interrupted upload leaves nothing in the library.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

#[derive(Debug, Clone)]
pub struct Storage {
    root: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("unsupported storage URL {0}: this build stores media in a local folder (file://...)")]
    Unsupported(String),
    #[error("invalid storage key {0}")]
    BadKey(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Storage {
    pub fn from_url(url: &str) -> Result<Storage, StorageError> {
        match url.strip_prefix("file://") {
            Some(path) if !path.is_empty() => Ok(Storage {
                root: PathBuf::from(path),
            }),
            _ => Err(StorageError::Unsupported(url.to_string())),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file of a key. Keys are ours (`m/<merchant>/<random>.<ext>`), checked anyway.
    pub fn path(&self, key: &str) -> Result<PathBuf, StorageError> {
        let ok = !key.is_empty()
            && !key.starts_with('/')
            && key
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != "..")
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/_.-".contains(c));
        if !ok {
            return Err(StorageError::BadKey(key.to_string()));
        }
        Ok(self.root.join(key))
    }

    /// A fresh temporary file path on the same filesystem as the library.
    pub async fn temp_path(&self, ext: &str) -> Result<PathBuf, StorageError> {
        let dir = self.root.join(".tmp");
        tokio::fs::create_dir_all(&dir).await?;
        Ok(dir.join(format!("{}.{ext}", token(16))))
    }

    /// Moves a finished temporary file into place under `key`.
    pub async fn put_file(&self, key: &str, from: &Path) -> Result<u64, StorageError> {
        let to = self.path(key)?;
        if let Some(dir) = to.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        if tokio::fs::rename(from, &to).await.is_err() {
            tokio::fs::copy(from, &to).await?;
            tokio::fs::remove_file(from).await?;
        }
        Ok(tokio::fs::metadata(&to).await?.len())
    }

    /// A second key for a stored file: a hard link (instant, no space; stored files are never rewritten
    /// in place), or a copy where the folder cannot link.
    pub async fn link(&self, from_key: &str, to_key: &str) -> Result<(), StorageError> {
        let (from, to) = (self.path(from_key)?, self.path(to_key)?);
        if let Some(dir) = to.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        if tokio::fs::hard_link(&from, &to).await.is_err() {
            tokio::fs::copy(&from, &to).await?;
        }
        Ok(())
    }

    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }

    pub async fn exists(&self, key: &str) -> bool {
        match self.path(key) {
            Ok(p) => tokio::fs::metadata(p).await.is_ok(),
            Err(_) => false,
        }
    }

    /// A new key for a merchant's file.
    pub fn new_key(merchant_id: i64, ext: &str) -> String {
        format!("m/{merchant_id}/{}.{ext}", token(20))
    }

    /// The part file a chunked upload is written into until it finishes.
    pub fn upload_part(&self, upload_id: &str) -> PathBuf {
        self.root.join(".tmp").join(format!("up-{upload_id}.part"))
    }

    /// A project's shared render part (audio bed, subtitles), named by a digest of what it is made from.
    pub fn prep_dir(&self, project_id: i64, digest: &str) -> PathBuf {
        self.root
            .join(".prep")
            .join(format!("p{project_id}-{digest}"))
    }

    /// Removes the temporary files, abandoned upload parts and render prep folders that no live work owns
    /// (what a crash or a restart leaves behind). Blocking: run it off the async threads.
    pub fn sweep(&self, live: &Live) -> std::io::Result<Swept> {
        let mut out = Swept::default();
        let stale = |t: SystemTime| t + live.grace < live.now;
        for entry in read_dir_or_empty(&self.root.join(".tmp"))? {
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
        for entry in read_dir_or_empty(&self.root.join(".prep"))? {
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

fn token(n: usize) -> String {
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
        let s = Storage::from_url("file:///tmp/x").unwrap();
        assert!(s.path("m/1/abc.mp4").is_ok());
        for bad in [
            "../etc/passwd",
            "/etc/passwd",
            "m/../../x",
            "m//x",
            "m/1/a b.mp4",
            "",
        ] {
            assert!(s.path(bad).is_err(), "{bad}");
        }
        assert!(Storage::from_url("s3://bucket/prefix").is_err());
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
        let s = Storage::from_url(&format!("file://{}", dir.display())).unwrap();
        // Times around the real clock: the folders made here carry it as their own time.
        let hour = Duration::from_secs(3600);
        let t0 = SystemTime::now() - 10 * hour;
        let put = |p: &Path, at: SystemTime| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let f = std::fs::File::create(p).unwrap();
            std::io::Write::write_all(&mut &f, b"12345").unwrap();
            f.set_modified(at).unwrap();
        };
        let tmp = dir.join(".tmp");
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
        assert_eq!(left(&dir.join(".prep")), ["p4-def", "p5-fff"]);
        assert_eq!(
            swept,
            Swept {
                entries: 4,
                bytes: 20
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
}
