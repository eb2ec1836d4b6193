//! One storage suite, two backends: the local folder and S3 (on moto, started here). Whatever the rest
//! of the code may rely on is asserted in `suite`, so both backends are held to the same contract.

mod moto;

use media::Storage;
use media::storage::s3::S3Settings;
use media::storage::{Body, Listed, Object, StorageError};
use std::path::PathBuf;
use tokio::io::AsyncReadExt;

fn scratch(tag: &str) -> PathBuf {
    let n: u64 = rand_id();
    std::env::temp_dir().join(format!("cm-{tag}-{}-{n}", std::process::id()))
}

fn rand_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0);
    h.finish()
}

fn s3_settings(m: &moto::Moto, key: &str, secret: &str) -> S3Settings {
    S3Settings {
        endpoint: Some(m.endpoint.clone()),
        region: Some("us-east-1".into()),
        access_key_id: Some(key.into()),
        secret_access_key: Some(secret.into()),
        cache_bytes: 64 << 20,
    }
}

/// A deterministic byte pattern, so any slice can be checked without holding the whole.
fn pattern(i: u64) -> u8 {
    (i.wrapping_mul(2654435761) >> 13) as u8
}

/// `len` bytes of `pattern`, produced as they are read (never held whole).
struct Pattern {
    at: u64,
    len: u64,
}

impl tokio::io::AsyncRead for Pattern {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let n = (buf.remaining() as u64).min(self.len - self.at);
        let start = self.at;
        let bytes: Vec<u8> = (start..start + n).map(pattern).collect();
        buf.put_slice(&bytes);
        self.at += n;
        std::task::Poll::Ready(Ok(()))
    }
}

async fn read(o: Object) -> (u64, u64, u64, Vec<u8>) {
    let mut v = vec![];
    let mut b = o.body;
    b.read_to_end(&mut v).await.unwrap();
    (o.start, o.end, o.size, v)
}

/// The contract: streamed puts are all or nothing, ranged gets, links, listing by prefix, deletes,
/// local copies, signed URLs where the backend has them, and a missing object is `NotFound`.
async fn suite(s: Storage, signs: bool) {
    s.check()
        .await
        .expect("a usable store passes the start check");
    let store = s.store();
    let body: Body = Box::pin(std::io::Cursor::new(b"0123456789".to_vec()));
    assert_eq!(store.put_stream("m/1/a.bin", body).await.unwrap(), 10);
    let text = |r: (u64, u64, u64, Vec<u8>)| (r.0, r.1, r.2, String::from_utf8(r.3).unwrap());
    assert_eq!(
        text(read(s.get("m/1/a.bin", None).await.unwrap()).await),
        (0, 10, 10, "0123456789".into())
    );
    assert_eq!(
        text(read(s.get("m/1/a.bin", Some((2, Some(5)))).await.unwrap()).await),
        (2, 5, 10, "234".into())
    );
    assert_eq!(
        text(read(s.get("m/1/a.bin", Some((7, None))).await.unwrap()).await),
        (7, 10, 10, "789".into())
    );
    // A range running past the end is cut at the end.
    assert_eq!(
        text(read(s.get("m/1/a.bin", Some((8, Some(99)))).await.unwrap()).await),
        (8, 10, 10, "89".into())
    );
    assert!(matches!(
        s.get("m/1/a.bin", Some((12, None))).await,
        Err(StorageError::BadRange { .. })
    ));
    // An empty object.
    let empty: Body = Box::pin(std::io::Cursor::new(vec![]));
    assert_eq!(store.put_stream("m/1/empty.bin", empty).await.unwrap(), 0);
    assert_eq!(
        read(s.get("m/1/empty.bin", None).await.unwrap())
            .await
            .3
            .len(),
        0
    );

    // A put from a finished scratch file (consumed), a link, the listing.
    let tmp = s.temp_path("bin").await.unwrap();
    std::fs::write(&tmp, b"xy").unwrap();
    assert_eq!(s.put_file("m/2/b.bin", &tmp).await.unwrap(), 2);
    assert!(!tmp.exists());
    s.link("m/2/b.bin", "m/2/c.bin").await.unwrap();
    let keys = |l: Vec<Listed>| l.into_iter().map(|l| l.key).collect::<Vec<_>>();
    assert_eq!(
        keys(store.list("m/2/").await.unwrap()),
        ["m/2/b.bin", "m/2/c.bin"]
    );
    assert_eq!(keys(store.list("m/2/c").await.unwrap()), ["m/2/c.bin"]);
    assert_eq!(
        keys(store.list("m/").await.unwrap()),
        ["m/1/a.bin", "m/1/empty.bin", "m/2/b.bin", "m/2/c.bin"]
    );
    assert_eq!(store.list("m/1/").await.unwrap()[0].size, 10);
    assert!(store.list("nothing/").await.unwrap().is_empty());
    assert!(s.exists("m/2/c.bin").await);
    s.delete("m/2/c.bin").await.unwrap();
    s.delete("m/2/c.bin").await.unwrap();
    assert!(!s.exists("m/2/c.bin").await);
    assert!(s.exists("m/2/b.bin").await, "the link's source stays");
    assert!(matches!(
        s.local_copy("m/2/c.bin").await,
        Err(StorageError::NotFound(_))
    ));
    assert!(matches!(
        s.get("m/9/none.bin", None).await,
        Err(StorageError::NotFound(_))
    ));
    assert!(matches!(
        s.local_copy("../x").await,
        Err(StorageError::BadKey(_))
    ));
    assert!(matches!(
        s.link("m/9/none.bin", "m/9/other.bin").await,
        Err(StorageError::NotFound(_))
    ));
    let copy = s.local_copy("m/2/b.bin").await.unwrap();
    assert_eq!(std::fs::read(copy.path()).unwrap(), b"xy");
    // Scratch space is not in the store, and a local copy is a file on this node's disk.
    assert!(copy.path().is_file());

    // Larger than one multipart part: streamed in parts, read back across a part boundary.
    let big = (media::storage::s3::PART as u64) * 2 + 12_345;
    let body: Body = Box::pin(Pattern { at: 0, len: big });
    assert_eq!(store.put_stream("m/3/big.bin", body).await.unwrap(), big);
    let at = media::storage::s3::PART as u64 - 100;
    let (start, end, size, bytes) = read(
        s.get("m/3/big.bin", Some((at, Some(at + 300))))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((start, end, size), (at, at + 300, big));
    assert!(
        bytes
            .iter()
            .enumerate()
            .all(|(i, b)| *b == pattern(at + i as u64))
    );
    let copy = s.local_copy("m/3/big.bin").await.unwrap();
    assert_eq!(std::fs::metadata(copy.path()).unwrap().len(), big);
    let whole = std::fs::read(copy.path()).unwrap();
    assert!(
        whole
            .iter()
            .enumerate()
            .all(|(i, b)| *b == pattern(i as u64))
    );
    drop(whole);
    // A failed stream leaves no object (all or nothing).
    let broken: Body = Box::pin(tokio::io::AsyncReadExt::chain(
        Pattern { at: 0, len: big },
        Failing,
    ));
    assert!(store.put_stream("m/3/broken.bin", broken).await.is_err());
    assert!(!s.exists("m/3/broken.bin").await);

    // Signed URLs: S3's presigned GET serves the bytes, ranges too; the folder has none.
    match store.signed_url("m/1/a.bin", 60) {
        Some(url) => {
            assert!(signs, "this backend should not sign");
            // A SigV4 query signature that expires (moto does not check presigned signatures, so the
            // shape is what can be asserted here).
            assert!(
                url.contains("X-Amz-Signature=") && url.contains("X-Amz-Expires=60"),
                "{url}"
            );
            let c = reqwest::Client::new();
            let r = c.get(&url).send().await.unwrap();
            assert!(r.status().is_success(), "{}", r.status());
            assert_eq!(r.text().await.unwrap(), "0123456789");
            let r = c
                .get(&url)
                .header("Range", "bytes=3-4")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 206);
            assert_eq!(r.text().await.unwrap(), "34");
        }
        None => assert!(!signs, "this backend should sign"),
    }
    // Deleting the big object removes it from the store (a cached copy does not bring it back).
    drop(copy);
    s.delete("m/3/big.bin").await.unwrap();
    assert!(matches!(
        s.local_copy("m/3/big.bin").await,
        Err(StorageError::NotFound(_))
    ));
}

/// A reader that fails: a connection lost in the middle of an upload.
struct Failing;

impl tokio::io::AsyncRead for Failing {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        _: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Err(std::io::Error::other("connection lost")))
    }
}

#[tokio::test]
async fn the_local_folder_backend() {
    let dir = scratch("store");
    let s = Storage::open(
        &format!("file://{}", dir.join("media").display()),
        dir.join("work"),
    )
    .unwrap();
    suite(s, false).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_s3_backend_on_moto() {
    let m = moto::Moto::start();
    m.bucket("media").await;
    let dir = scratch("s3");
    let s = Storage::open_with(
        "s3://media/cm/test",
        dir.join("work"),
        &s3_settings(&m, "test", "test"),
    )
    .unwrap();
    suite(s, true).await;
    // Everything went under the prefix.
    let root = Storage::open_with(
        "s3://media",
        dir.join("w2"),
        &s3_settings(&m, "test", "test"),
    )
    .unwrap();
    let all = root.store().list("").await.unwrap();
    assert!(!all.is_empty());
    assert!(all.iter().all(|l| l.key.starts_with("cm/test/")), "{all:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad configuration fails at start (`Storage::check`) with a message naming the cause: an endpoint
/// nobody listens on, a bucket that is not there, a key the server refuses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_s3_configuration_fails_at_start() {
    let m = moto::Moto::start();
    m.bucket("media").await;
    let (key, secret) = m.enforce_auth().await;
    let dir = scratch("s3bad");
    let open = |url: &str, s: S3Settings| Storage::open_with(url, dir.join("work"), &s).unwrap();
    let err = |r: Result<(), StorageError>| match r {
        Err(StorageError::Config(msg)) => msg,
        other => panic!("expected a configuration error, got {other:?}"),
    };
    // The right key works under authentication (signatures are checked).
    open("s3://media/p", s3_settings(&m, &key, &secret))
        .check()
        .await
        .unwrap();

    let wrong_key = err(open("s3://media/p", s3_settings(&m, "AKIANOTAKEY", "nope"))
        .check()
        .await);
    assert!(wrong_key.contains("access key"), "{wrong_key}");
    let wrong_secret = err(
        open("s3://media/p", s3_settings(&m, &key, "not-the-secret"))
            .check()
            .await,
    );
    assert!(wrong_secret.contains("access key"), "{wrong_secret}");
    let no_bucket = err(open("s3://nobucket/p", s3_settings(&m, &key, &secret))
        .check()
        .await);
    assert!(
        no_bucket.contains("\"nobucket\" does not exist"),
        "{no_bucket}"
    );
    // A port nobody listens on.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = dead.local_addr().unwrap().port();
    drop(dead);
    let mut s = s3_settings(&m, &key, &secret);
    s.endpoint = Some(format!("http://127.0.0.1:{port}"));
    let unreachable = err(open("s3://media/p", s).check().await);
    assert!(unreachable.contains("cannot be reached"), "{unreachable}");
    // Malformed settings are refused before any request.
    assert!(matches!(
        Storage::open_with("s3:///p", dir.join("work"), &s3_settings(&m, &key, &secret)),
        Err(StorageError::Config(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
