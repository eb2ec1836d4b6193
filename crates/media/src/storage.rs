//! Where media lives. One type for every backend the URL can name; the local folder is built in, and
//! `s3://` is refused with a clear message until an S3 client is added behind the same methods.
//! Uploads are streamed into a temporary file under the storage root and then moved into place, so a
//! refused or interrupted upload leaves nothing in the library.

use std::path::{Path, PathBuf};

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
}
