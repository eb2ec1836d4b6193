//! The S3-compatible backend (`s3://bucket/prefix`), on `object_store`'s S3 client.
//!
//! - Puts stream: a multipart upload of [`PART`]-sized parts with at most [`IN_FLIGHT`] parts in the
//!   air, so a 300 MB upload holds ~`PART * (IN_FLIGHT + 1)` bytes however large the file; a failed
//!   upload is aborted (all or nothing, as with the folder).
//! - Gets are ranged GETs streamed to the caller; signed URLs are presigned GETs.
//! - `local_copy` goes through a read-through cache on the local disk (`<work>/s3-cache`), capped in
//!   size: a render on a worker with an empty disk downloads its mezzanines once, and the least recently
//!   used files go when the cap is passed, except those a caller still holds.
//! - HTTP goes through the workspace's reqwest (rustls/ring), not object_store's own client, so the
//!   build carries one HTTP stack and one TLS provider.

use super::{Body, Fut, Listed, LocalFile, Object, ObjectStore, StorageError, check_key};
use futures_util::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::client::{
    ClientOptions, HttpClient, HttpConnector, HttpError, HttpErrorKind, HttpRequest, HttpResponse,
    HttpResponseBody, HttpService,
};
use object_store::path::Path as OPath;
use object_store::{
    GetOptions, GetRange, ObjectStore as _, ObjectStoreExt as _, PutPayload, WriteMultipart,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// Size of one multipart part (S3's minimum is 5 MiB).
pub const PART: usize = 8 << 20;
/// Parts uploading at once.
pub const IN_FLIGHT: usize = 3;

/// How to reach the bucket: `CLIPMATRIX_S3_*` (falling back to the usual `AWS_*` names).
#[derive(Debug, Clone, Default)]
pub struct S3Settings {
    /// e.g. `http://127.0.0.1:9000` for MinIO or moto; none is AWS itself.
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    /// The cap of the local read-through cache, in bytes.
    pub cache_bytes: u64,
}

impl S3Settings {
    pub const DEFAULT_CACHE_MB: u64 = 2048;

    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<S3Settings, StorageError> {
        let v = |names: &[&str]| names.iter().find_map(|n| get(n).filter(|s| !s.is_empty()));
        let cache_mb = match v(&["CLIPMATRIX_S3_CACHE_MB"]) {
            None => Self::DEFAULT_CACHE_MB,
            Some(s) => s.parse().map_err(|_| {
                StorageError::Config(format!(
                    "CLIPMATRIX_S3_CACHE_MB must be a number of megabytes, got {s:?}"
                ))
            })?,
        };
        Ok(S3Settings {
            endpoint: v(&["CLIPMATRIX_S3_ENDPOINT", "AWS_ENDPOINT_URL"]),
            region: v(&["CLIPMATRIX_S3_REGION", "AWS_REGION", "AWS_DEFAULT_REGION"]),
            access_key_id: v(&["CLIPMATRIX_S3_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"]),
            secret_access_key: v(&["CLIPMATRIX_S3_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY"]),
            cache_bytes: cache_mb << 20,
        })
    }
}

#[derive(Debug)]
pub struct S3 {
    s3: AmazonS3,
    bucket: String,
    /// Prepended to every key, with its trailing `/` (empty for the bucket's root).
    prefix: String,
    cache: Cache,
}

impl S3 {
    /// The store of `s3://bucket/prefix`; nothing is sent until the first call (the check at start).
    pub fn new(url: &str, s: &S3Settings, work: &Path) -> Result<S3, StorageError> {
        let rest = url
            .strip_prefix("s3://")
            .ok_or_else(|| StorageError::Unsupported(url.to_string()))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let prefix = prefix.trim_matches('/');
        if bucket.is_empty() || (!prefix.is_empty() && check_key(prefix).is_err()) {
            return Err(StorageError::Config(format!(
                "{url}: expected s3://<bucket>/<optional prefix>"
            )));
        }
        let (Some(key), Some(secret)) = (&s.access_key_id, &s.secret_access_key) else {
            return Err(StorageError::Config(format!(
                "{url}: set CLIPMATRIX_S3_ACCESS_KEY_ID and CLIPMATRIX_S3_SECRET_ACCESS_KEY"
            )));
        };
        let mut b = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(s.region.as_deref().unwrap_or("us-east-1"))
            .with_access_key_id(key)
            .with_secret_access_key(secret)
            .with_http_connector(Reqwest)
            .with_retry(object_store::RetryConfig {
                max_retries: 3,
                retry_timeout: Duration::from_secs(30),
                ..Default::default()
            });
        if let Some(ep) = &s.endpoint {
            b = b
                .with_endpoint(ep.trim_end_matches('/'))
                .with_allow_http(ep.starts_with("http://"));
        }
        let s3 = b
            .build()
            .map_err(|e| StorageError::Config(format!("{url}: {e}")))?;
        Ok(S3 {
            s3,
            bucket: bucket.to_string(),
            prefix: if prefix.is_empty() {
                String::new()
            } else {
                format!("{prefix}/")
            },
            cache: Cache::new(work.join("s3-cache"), s.cache_bytes),
        })
    }

    fn path(&self, key: &str) -> Result<OPath, StorageError> {
        check_key(key)?;
        Ok(OPath::from(format!("{}{key}", self.prefix)))
    }

    /// Lists the prefix, so an unreachable endpoint, a missing bucket or a refused key shows at start.
    async fn reach(&self) -> Result<(), StorageError> {
        let prefix = OPath::from(self.prefix.trim_end_matches('/'));
        match self.s3.list_with_delimiter(Some(&prefix)).await {
            Ok(_) => Ok(()),
            Err(e) => Err(StorageError::Config(explain(&self.bucket, &e))),
        }
    }

    async fn put_reader(
        &self,
        key: &str,
        mut body: impl tokio::io::AsyncRead + Unpin,
    ) -> Result<u64, StorageError> {
        let path = self.path(key)?;
        // The first part decides: an object smaller than one part goes in one PUT.
        let mut first = vec![0u8; PART];
        let n = read_full(&mut body, &mut first).await?;
        if n < PART {
            first.truncate(n);
            self.s3
                .put(&path, PutPayload::from(first))
                .await
                .map_err(|e| other(key, e))?;
            return Ok(n as u64);
        }
        let upload = self
            .s3
            .put_multipart(&path)
            .await
            .map_err(|e| other(key, e))?;
        let mut w = WriteMultipart::new_with_chunk_size(upload, PART);
        w.put(first.into());
        let mut total = n as u64;
        let copied = async {
            let mut buf = vec![0u8; 256 << 10];
            loop {
                let n = body.read(&mut buf).await?;
                if n == 0 {
                    return Ok::<(), StorageError>(());
                }
                w.wait_for_capacity(IN_FLIGHT)
                    .await
                    .map_err(|e| other(key, e))?;
                w.write(&buf[..n]);
                total += n as u64;
            }
        }
        .await;
        match copied {
            Ok(()) => {
                w.finish().await.map_err(|e| other(key, e))?;
                Ok(total)
            }
            Err(e) => {
                let _ = w.abort().await;
                Err(e)
            }
        }
    }
}

/// Reads until `buf` is full or the stream ends; how many bytes.
async fn read_full(
    r: &mut (impl tokio::io::AsyncRead + Unpin),
    buf: &mut [u8],
) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let k = r.read(&mut buf[n..]).await?;
        if k == 0 {
            break;
        }
        n += k;
    }
    Ok(n)
}

fn other(key: &str, e: object_store::Error) -> StorageError {
    match e {
        object_store::Error::NotFound { .. } => StorageError::NotFound(key.to_string()),
        e => StorageError::Io(std::io::Error::other(e)),
    }
}

/// A start-up message that names the likely cause.
fn explain(bucket: &str, e: &object_store::Error) -> String {
    let text = e.to_string();
    let full = {
        let mut s = text.clone();
        let mut src = std::error::Error::source(e);
        while let Some(x) = src {
            s.push_str(": ");
            s.push_str(&x.to_string());
            src = x.source();
        }
        s
    };
    // A transport failure is checked before the key: the retry text carries elapsed times such as
    // "in 403.19ms", so a bare "403" proves nothing; an HTTP refusal says "403 Forbidden".
    let unreachable = full.contains("tcp connect error")
        || full.contains("(Connect)")
        || full.contains("dns error")
        || full.contains("Connection refused");
    let why = if full.contains("NoSuchBucket") || matches!(e, object_store::Error::NotFound { .. })
    {
        format!("the bucket {bucket:?} does not exist")
    } else if unreachable {
        "the endpoint cannot be reached (CLIPMATRIX_S3_ENDPOINT)".to_string()
    } else if full.contains("InvalidAccessKeyId")
        || full.contains("SignatureDoesNotMatch")
        || full.contains("AccessDenied")
        || full.contains("403 Forbidden")
        || matches!(
            e,
            object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }
        )
    {
        "the access key or secret is refused (CLIPMATRIX_S3_ACCESS_KEY_ID / CLIPMATRIX_S3_SECRET_ACCESS_KEY)".to_string()
    } else if full.contains("connect") || full.contains("Connect") {
        "the endpoint cannot be reached (CLIPMATRIX_S3_ENDPOINT)".to_string()
    } else {
        "the storage answered with an error".to_string()
    };
    format!("S3 storage is not usable: {why} ({full})")
}

impl ObjectStore for S3 {
    fn check(&self) -> Fut<'_, ()> {
        Box::pin(self.reach())
    }

    fn put_file<'a>(&'a self, key: &'a str, from: &'a Path) -> Fut<'a, u64> {
        Box::pin(async move {
            let f = tokio::fs::File::open(from).await?;
            let n = self.put_reader(key, f).await?;
            tokio::fs::remove_file(from).await?;
            Ok(n)
        })
    }

    fn put_stream<'a>(&'a self, key: &'a str, body: Body) -> Fut<'a, u64> {
        Box::pin(async move { self.put_reader(key, body).await })
    }

    fn get<'a>(&'a self, key: &'a str, range: Option<(u64, Option<u64>)>) -> Fut<'a, Object> {
        Box::pin(async move {
            let path = self.path(key)?;
            let want = match range {
                None | Some((0, None)) => None,
                Some((start, None)) => Some(GetRange::Offset(start)),
                Some((start, Some(end))) if end > start => Some(GetRange::Bounded(start..end)),
                // An empty or reversed range: answered from the size alone, like the folder.
                Some((start, Some(end))) => {
                    let size = self.s3.head(&path).await.map_err(|e| other(key, e))?.size;
                    if start > end || (start >= size && size > 0) {
                        return Err(StorageError::BadRange { start, end, size });
                    }
                    return Ok(Object {
                        size,
                        start,
                        end,
                        body: Box::pin(tokio::io::empty()),
                    });
                }
            };
            let opts = GetOptions {
                range: want,
                ..Default::default()
            };
            let r = match self.s3.get_opts(&path, opts).await {
                Ok(r) => r,
                Err(object_store::Error::NotFound { .. }) => {
                    return Err(StorageError::NotFound(key.to_string()));
                }
                Err(e) => {
                    // A range past the end: the folder's error, with the size.
                    if let (Some((start, end)), Ok(meta)) = (range, self.s3.head(&path).await)
                        && start >= meta.size
                    {
                        return Err(StorageError::BadRange {
                            start,
                            end: end.unwrap_or(meta.size),
                            size: meta.size,
                        });
                    }
                    return Err(other(key, e));
                }
            };
            let (size, start, end) = (r.meta.size, r.range.start, r.range.end);
            let stream = r.into_stream().map(|c| c.map_err(std::io::Error::other));
            Ok(Object {
                size,
                start,
                end,
                body: Box::pin(tokio_util::io::StreamReader::new(stream)),
            })
        })
    }

    fn delete<'a>(&'a self, key: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let path = self.path(key)?;
            self.cache.forget(key);
            match self.s3.delete(&path).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(e) => Err(other(key, e)),
            }
        })
    }

    fn exists<'a>(&'a self, key: &'a str) -> Fut<'a, bool> {
        Box::pin(async move {
            let Ok(path) = self.path(key) else {
                return Ok(false);
            };
            match self.s3.head(&path).await {
                Ok(_) => Ok(true),
                Err(object_store::Error::NotFound { .. }) => Ok(false),
                Err(e) => Err(other(key, e)),
            }
        })
    }

    fn link<'a>(&'a self, from_key: &'a str, to_key: &'a str) -> Fut<'a, ()> {
        Box::pin(async move {
            let (from, to) = (self.path(from_key)?, self.path(to_key)?);
            // A server-side copy: no bytes pass through this node.
            self.s3
                .copy(&from, &to)
                .await
                .map_err(|e| other(from_key, e))
        })
    }

    fn list<'a>(&'a self, prefix: &'a str) -> Fut<'a, Vec<Listed>> {
        Box::pin(async move {
            // object_store lists whole path segments: list the folder part, filter by the rest.
            let full = format!("{}{prefix}", self.prefix);
            let dir = match full.rfind('/') {
                Some(i) => &full[..i],
                None => "",
            };
            let dir = OPath::from(dir);
            let mut s = self.s3.list(Some(&dir));
            let mut out = vec![];
            while let Some(m) = s.next().await {
                let m = m.map_err(|e| other(prefix, e))?;
                let loc = m.location.as_ref();
                if let Some(key) = loc.strip_prefix(&self.prefix)
                    && loc.starts_with(&full)
                {
                    out.push(Listed {
                        key: key.to_string(),
                        size: m.size,
                    });
                }
            }
            out.sort_by(|a, b| a.key.cmp(&b.key));
            Ok(out)
        })
    }

    fn signed_url(&self, key: &str, ttl_secs: u64) -> Option<String> {
        use futures_util::FutureExt;
        use object_store::signer::Signer;
        let path = self.path(key).ok()?;
        // Static keys: signing does no I/O, the future is ready at once.
        self.s3
            .signed_url(
                http::Method::GET,
                &path,
                Duration::from_secs(ttl_secs.max(1)),
            )
            .now_or_never()?
            .ok()
            .map(|u| u.to_string())
    }

    fn local_copy<'a>(&'a self, key: &'a str) -> Fut<'a, LocalFile> {
        Box::pin(async move {
            check_key(key)?;
            if let Some(f) = self.cache.hit(key) {
                return Ok(f);
            }
            let file = self.cache.file(key);
            if let Some(dir) = file.parent() {
                tokio::fs::create_dir_all(dir).await?;
            }
            // Downloaded under a temporary name, renamed when complete: a reader never sees half a file.
            let part = file.with_extension(format!("part-{}", super::token(8)));
            let fetched = async {
                let mut o = self.get(key, None).await?;
                let mut f = tokio::fs::File::create(&part).await?;
                tokio::io::copy(&mut o.body, &mut f).await?;
                tokio::io::AsyncWriteExt::flush(&mut f).await?;
                tokio::fs::rename(&part, &file).await?;
                Ok::<(), StorageError>(())
            }
            .await;
            if let Err(e) = fetched {
                let _ = tokio::fs::remove_file(&part).await;
                return Err(e);
            }
            let held = self.cache.hold(key, file);
            let cache = self.cache.clone();
            // Trimming walks the cache folder: off the async threads.
            let _ = tokio::task::spawn_blocking(move || cache.trim()).await;
            Ok(held)
        })
    }
}

/// The read-through cache of `local_copy`: files under `root` named by key, the least recently used
/// removed past `cap` bytes, except those a [`LocalFile`] still holds.
#[derive(Debug, Clone)]
struct Cache {
    root: PathBuf,
    cap: u64,
    /// Live holders per cached key.
    held: Arc<Mutex<HashMap<String, usize>>>,
}

/// Released when the last clone of the [`LocalFile`] that holds a cached file goes.
#[derive(Debug)]
pub(crate) struct Hold {
    key: String,
    held: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = h.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                h.remove(&self.key);
            }
        }
    }
}

impl Cache {
    fn new(root: PathBuf, cap: u64) -> Cache {
        Cache {
            root,
            cap,
            held: Default::default(),
        }
    }

    fn file(&self, key: &str) -> PathBuf {
        self.root.join(key)
    }

    fn hold(&self, key: &str, path: PathBuf) -> LocalFile {
        *self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key.to_string())
            .or_default() += 1;
        LocalFile::held(
            path,
            Arc::new(Hold {
                key: key.to_string(),
                held: self.held.clone(),
            }),
        )
    }

    /// A cached copy, its time touched so the trim sees it as recently used. Stored objects are never
    /// rewritten in place, so a present file is current.
    fn hit(&self, key: &str) -> Option<LocalFile> {
        let path = self.file(key);
        let f = std::fs::File::options().append(true).open(&path).ok()?;
        let _ = f.set_modified(std::time::SystemTime::now());
        Some(self.hold(key, path))
    }

    fn forget(&self, key: &str) {
        let held = self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(key);
        if !held {
            let _ = std::fs::remove_file(self.file(key));
        }
    }

    /// Removes the least recently used files until the cache is under its cap.
    fn trim(&self) {
        let mut files = vec![];
        collect(&self.root, &self.root, &mut files);
        let mut total: u64 = files.iter().map(|f| f.2).sum();
        if total <= self.cap {
            return;
        }
        files.sort_by_key(|f| f.1);
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (key, _, size) in files {
            if total <= self.cap {
                break;
            }
            if held.contains_key(&key) {
                continue;
            }
            if std::fs::remove_file(self.file(&key)).is_ok() {
                total -= size;
            }
        }
    }

    /// Bytes held in the cache folder (tests).
    #[cfg(test)]
    fn used(&self) -> u64 {
        let mut files = vec![];
        collect(&self.root, &self.root, &mut files);
        files.iter().map(|f| f.2).sum()
    }
}

/// (key, modified, size) of the complete files under `dir`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, std::time::SystemTime, u64)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let path = e.path();
        let Ok(meta) = e.metadata() else { continue };
        if meta.is_dir() {
            collect(root, &path, out);
        } else if !e.file_name().to_string_lossy().contains(".part-")
            && let Ok(rel) = path.strip_prefix(root)
        {
            let key = rel.to_string_lossy().replace('\\', "/");
            let t = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
            out.push((key, t, meta.len()));
        }
    }
}

/// object_store's HTTP connector on the workspace's reqwest.
#[derive(Debug)]
struct Reqwest;

impl HttpConnector for Reqwest {
    fn connect(&self, _: &ClientOptions) -> object_store::Result<HttpClient> {
        let c = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .read_timeout(Duration::from_secs(60))
            .build()
            .map_err(|e| object_store::Error::Generic {
                store: "S3",
                source: Box::new(e),
            })?;
        Ok(HttpClient::new(ReqwestService(c)))
    }
}

#[derive(Debug)]
struct ReqwestService(reqwest::Client);

fn http_error(e: reqwest::Error) -> HttpError {
    let kind = if e.is_timeout() {
        HttpErrorKind::Timeout
    } else if e.is_connect() {
        HttpErrorKind::Connect
    } else if e.is_body() || e.is_request() {
        HttpErrorKind::Request
    } else if e.is_decode() {
        HttpErrorKind::Decode
    } else {
        HttpErrorKind::Unknown
    };
    HttpError::new(kind, e)
}

#[async_trait::async_trait]
impl HttpService for ReqwestService {
    async fn call(&self, req: HttpRequest) -> Result<HttpResponse, HttpError> {
        let (parts, body) = req.into_parts();
        let url = reqwest::Url::parse(&parts.uri.to_string())
            .map_err(|e| HttpError::new(HttpErrorKind::Request, e))?;
        let mut r = reqwest::Request::new(parts.method, url);
        *r.headers_mut() = parts.headers;
        *r.body_mut() = Some(reqwest::Body::wrap(body));
        let res = self.0.execute(r).await.map_err(http_error)?;
        let res: http::Response<reqwest::Body> = res.into();
        let (parts, body) = res.into_parts();
        let body = http_body_util::BodyExt::map_err(body, http_error);
        Ok(HttpResponse::from_parts(parts, HttpResponseBody::new(body)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache keeps under its cap by dropping the least recently used files, never one still held.
    #[test]
    fn the_cache_trims_least_recently_used_but_not_held_files() {
        let dir = std::env::temp_dir().join(format!(
            "cm-s3cache-{}-{}",
            std::process::id(),
            crate::storage::token(6)
        ));
        let c = Cache::new(dir.clone(), 10);
        let put = |k: &str, age: u64| {
            let p = c.file(k);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"12345").unwrap();
            let f = std::fs::File::options().append(true).open(&p).unwrap();
            f.set_modified(std::time::SystemTime::now() - Duration::from_secs(age))
                .unwrap();
        };
        put("m/1/old.mp4", 300);
        put("m/1/mid.mp4", 200);
        put("m/1/new.mp4", 100);
        let held = c.hold("m/1/old.mp4", c.file("m/1/old.mp4"));
        c.trim();
        // 15 bytes over a cap of 10: the oldest unheld file (mid) goes, the held oldest stays.
        assert!(c.file("m/1/old.mp4").exists());
        assert!(!c.file("m/1/mid.mp4").exists());
        assert!(c.file("m/1/new.mp4").exists());
        assert_eq!(c.used(), 10);
        put("m/1/newer.mp4", 0);
        let again = held.clone();
        drop(held);
        c.trim();
        assert!(c.file("m/1/old.mp4").exists(), "a clone still holds it");
        drop(again);
        put("m/1/last.mp4", 0);
        c.trim();
        assert!(!c.file("m/1/old.mp4").exists());
        assert_eq!(c.used(), 10);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn generic(msg: &str) -> object_store::Error {
        object_store::Error::Generic {
            store: "S3",
            source: msg.to_string().into(),
        }
    }

    #[test]
    fn start_up_messages_name_the_cause() {
        // A refused connection whose retry text happens to hold "403" (an elapsed time) is no key problem.
        let down = generic(
            "Error performing GET http://127.0.0.1:1/media in 403.199122ms, after 3 retries - \
             client error (Connect): tcp connect error: Connection refused (os error 111)",
        );
        assert!(explain("media", &down).contains("cannot be reached"));
        let refused = generic(
            "Error performing GET http://s3/media in 12ms - Client error with status 403 Forbidden: \
             <Error><Code>InvalidAccessKeyId</Code></Error>",
        );
        assert!(explain("media", &refused).contains("access key or secret is refused"));
        let missing = generic("Client error with status 404 Not Found: <Code>NoSuchBucket</Code>");
        assert!(explain("media", &missing).contains("does not exist"));
    }
}
